from django.apps import AppConfig


class PagesConfig(AppConfig):
    """Every public HTML page: its views, URLs, context processors and the sitemap that
    gathers the apps'. It defines no models; it stands above the apps whose rows it shows."""

    name = "pages"
    verbose_name = "Public pages"

    def ready(self) -> None:
        from base import site_cache
        from pages.warming import pages_showing

        site_cache.warm_pages_with(pages_showing)
