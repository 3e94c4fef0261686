"""/sitemap.xml: every public page, so search engines find profiles and papers from one list.

No `lastmod`: nothing records when a row was last edited, and a guessed date misleads crawlers.
"""

from django.contrib.sitemaps import Sitemap
from django.urls import reverse

from news.models import NewsItem
from people.models import Person
from publications.models import Publication


class SectionSitemap(Sitemap):
    """The home page and the three lists."""

    def items(self):
        return ["home", "people:index", "publications:index", "news:index"]

    def location(self, name):
        return reverse(name)


class PersonSitemap(Sitemap):
    def items(self):
        return Person.objects.published().only("slug").order_by("slug")


class PublicationSitemap(Sitemap):
    def items(self):
        return Publication.objects.published().only("slug").order_by("slug")


class NewsSitemap(Sitemap):
    def items(self):
        return NewsItem.objects.published().only("slug").order_by("slug")


SITEMAPS = {
    "sections": SectionSitemap,
    "people": PersonSitemap,
    "publications": PublicationSitemap,
    "news": NewsSitemap,
}
