from typing import Any

from django.contrib.sitemaps import Sitemap


class PublishedSitemap(Sitemap[Any]):
    """The pages of every published row of `model` (a model with a `published()` QuerySet and
    a `get_absolute_url` from its slug)."""

    model: Any = None

    def items(self) -> Any:
        return self.model.objects.published().only("slug").order_by("slug")
