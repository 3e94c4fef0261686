from django.apps import AppConfig


class PublicationsConfig(AppConfig):
    name = "publications"

    def ready(self):
        from publications import receivers  # noqa: F401  (connects them)
