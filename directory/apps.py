from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps


class DirectoryConfig(AppConfig):
    """The project package as an app, for its template tags and management commands."""

    default = True
    name = "directory"
    verbose_name = "Site"

    def ready(self):
        from directory import versions  # noqa: F401  (connects its signal receivers)


class LabAdminConfig(admin_apps.AdminConfig):
    """django.contrib.admin with the lab's site (directory/admin_site.py) as `admin.site`."""

    default = False  # "directory" itself is DirectoryConfig
    default_site = "directory.admin_site.LabAdminSite"
