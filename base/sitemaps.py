from typing import Any

from django.contrib.sitemaps import Sitemap


class LanguagesSitemap(Sitemap[Any]):
    """Each page once per language (settings.LANGUAGES: /people/ and /zh-hans/people/), each
    naming all its versions and the default as xhtml:link alternates, as the pages' own
    hreflang links do (docs/decisions/languages.md)."""

    i18n = True
    alternates = True
    x_default = True


class PublishedSitemap(LanguagesSitemap):
    """The pages of every published row of `model` (a model with a `published()` QuerySet and
    a `get_absolute_url` from its slug)."""

    model: Any = None

    def items(self) -> Any:
        return self.model.objects.published().only("slug").order_by("slug")
