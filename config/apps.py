from django.apps import AppConfig
from django.contrib.staticfiles.apps import StaticFilesConfig


class ConfigConfig(AppConfig):
    """The project package, installed for its one command (`seed`), which loads every app's
    fixtures. It defines no models: the site's own settings row lives in the base (`base/`, app label `directory`)."""

    name = "config"
    verbose_name = "Project"


class StaticFiles(StaticFilesConfig):
    """django-ninja ships ReDoc and Swagger UI with their source maps; /api/docs/ uses Swagger
    UI only, and a browser fetches a map only in its developer tools. Leaving them out of
    collectstatic saves compressing 6 MB on every deploy (and in every browser test run)."""

    ignore_patterns = [
        *StaticFilesConfig.ignore_patterns,
        "ninja/redoc*",
        "ninja/swagger-ui-bundle.js.map",
    ]
