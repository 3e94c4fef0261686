from django.apps import AppConfig


class DirectoryConfig(AppConfig):
    """The project package as an app, for its template tags and management commands."""

    name = "directory"
    verbose_name = "Site"

    def ready(self):
        from django.db.models.signals import m2m_changed, post_delete, post_save

        from directory.site_cache import model_changed

        # Every model's saves and deletes move the site's change stamp (directory/site_cache.py).
        for signal in (post_save, post_delete, m2m_changed):
            signal.connect(model_changed)
