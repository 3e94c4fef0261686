from base.sitemaps import PublishedSitemap
from news.models import NewsItem


class NewsItemSitemap(PublishedSitemap):
    model = NewsItem

    def items(self):
        """Only items with a page of their own: a one-line item (no body) is linked from
        nowhere on the site, so a search engine should not be sent to it either."""
        return super().items().exclude(body__regex=r"^\s*$")
