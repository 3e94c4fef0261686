from directory.sitemaps import PublishedSitemap
from people.models import Person


class PersonSitemap(PublishedSitemap):
    model = Person
