from directory.sitemaps import PublishedSitemap
from news.models import NewsItem


class NewsItemSitemap(PublishedSitemap):
    model = NewsItem
