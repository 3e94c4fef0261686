from django.apps import AppConfig


class OutputsConfig(AppConfig):
    name = "outputs"
    verbose_name = "Datasets and software"
