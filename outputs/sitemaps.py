from base.sitemaps import PublishedSitemap
from outputs.models import Output


class OutputSitemap(PublishedSitemap):
    model = Output
