from base.sitemaps import PublishedSitemap
from events.models import Event


class EventSitemap(PublishedSitemap):
    model = Event
