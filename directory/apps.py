from django.apps import AppConfig
from django.db.models.signals import pre_save


class DirectoryConfig(AppConfig):
    """The shared base as an app, for its models, template tags and management commands."""

    name = "directory"
    verbose_name = "Site"

    def ready(self):
        from directory import checks  # noqa: F401  (registers the system checks)
        from directory.validation import refuse_invalid_save

        # Every save of every model, so rows of apps above the base are checked too; the
        # receiver returns at once for a model that is not a ValidatedModel.
        pre_save.connect(refuse_invalid_save, dispatch_uid="directory.refuse_invalid_save")
