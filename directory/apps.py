from django.apps import AppConfig


class DirectoryConfig(AppConfig):
    """The project package as an app, for its template tags and management commands."""

    name = "directory"
    verbose_name = "Site"

    def ready(self):
        from directory import versions  # noqa: F401  (connects its signal receivers)
