from base.sitemaps import PublishedSitemap
from people.models import Person, ResearchArea, ResearchGroup


class PersonSitemap(PublishedSitemap):
    model = Person


class ResearchGroupSitemap(PublishedSitemap):
    model = ResearchGroup


class ResearchAreaSitemap(PublishedSitemap):
    model = ResearchArea
