from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps
from django.db.models.signals import pre_save


class BaseConfig(AppConfig):
    """The shared base as an app, for its models, template tags and management commands.

    Its label stays `directory`, the package's first name: its tables, migrations, content types
    and permissions (`directory.edit_all`) keep it."""

    default = True
    name = "base"
    label = "directory"
    verbose_name = "Site"

    def ready(self) -> None:
        from django.db.models.signals import m2m_changed, post_delete, post_save

        from base import (
            checks,  # noqa: F401  (registers the system checks)
            versions,  # noqa: F401  (connects its signal receivers)
        )
        from base.site_cache import model_changed
        from base.validation import refuse_invalid_save

        # Every save of every model, so rows of apps above the base are checked too; the
        # receiver returns at once for a model that is not a ValidatedModel.
        pre_save.connect(refuse_invalid_save, dispatch_uid="directory.refuse_invalid_save")
        # Every model's saves and deletes move the site's change stamp (base/site_cache.py).
        for signal in (post_save, post_delete, m2m_changed):
            signal.connect(model_changed)


class LabAdminConfig(admin_apps.AdminConfig):
    """django.contrib.admin with the lab's site (base/admin_site.py) as `admin.site`."""

    default = False  # "base" itself is BaseConfig
    default_site = "base.admin_site.LabAdminSite"
