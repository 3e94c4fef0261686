from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps
from django.db.models.signals import pre_save


class DirectoryConfig(AppConfig):
    """The shared base as an app, for its models, template tags and management commands."""

    default = True
    name = "directory"
    verbose_name = "Site"

    def ready(self) -> None:
        from django.db.models.signals import m2m_changed, post_delete, post_save

        from directory import (
            checks,  # noqa: F401  (registers the system checks)
            versions,  # noqa: F401  (connects its signal receivers)
        )
        from directory.site_cache import model_changed
        from directory.validation import refuse_invalid_save

        # Every save of every model, so rows of apps above the base are checked too; the
        # receiver returns at once for a model that is not a ValidatedModel.
        pre_save.connect(refuse_invalid_save, dispatch_uid="directory.refuse_invalid_save")
        # Every model's saves and deletes move the site's change stamp (directory/site_cache.py).
        for signal in (post_save, post_delete, m2m_changed):
            signal.connect(model_changed)


class LabAdminConfig(admin_apps.AdminConfig):
    """django.contrib.admin with the lab's site (directory/admin_site.py) as `admin.site`."""

    default = False  # "directory" itself is DirectoryConfig
    default_site = "directory.admin_site.LabAdminSite"
