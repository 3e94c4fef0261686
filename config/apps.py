from django.apps import AppConfig


class ConfigConfig(AppConfig):
    """The project package, installed for its one command (`seed`), which loads every app's
    fixtures. It defines no models: the site's own settings row lives in the base, `directory`."""

    name = "config"
    verbose_name = "Project"
