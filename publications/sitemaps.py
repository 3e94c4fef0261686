from base.sitemaps import PublishedSitemap
from publications.models import Publication


class PublicationSitemap(PublishedSitemap):
    model = Publication
