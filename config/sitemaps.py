"""/sitemap.xml: every public page, so search engines find profiles and papers from one list.
Each app owns the sitemap of its pages; this gathers them.

No `lastmod`: nothing records when a row was last edited, and a guessed date misleads crawlers.
"""

from django.contrib.sitemaps import Sitemap
from django.urls import reverse

from news.sitemaps import NewsItemSitemap
from people.sitemaps import PersonSitemap
from publications.sitemaps import PublicationSitemap


class SectionSitemap(Sitemap):
    """The home page and the three lists."""

    def items(self):
        return ["home", "people:index", "publications:index", "news:index"]

    def location(self, name):
        return reverse(name)


SITEMAPS = {
    "sections": SectionSitemap,
    "people": PersonSitemap,
    "publications": PublicationSitemap,
    "news": NewsItemSitemap,
}
