"""/sitemap.xml: every public page, so search engines find profiles and papers from one list.
Each app owns the sitemap of its pages; this gathers them.

No `lastmod`: nothing records when a row was last edited, and a guessed date misleads crawlers.
"""

from django.urls import reverse

from base.sitemaps import LanguagesSitemap
from events.models import Event
from events.sitemaps import EventSitemap
from news.sitemaps import NewsItemSitemap
from outputs.models import Output
from outputs.sitemaps import OutputSitemap
from people.models import ResearchArea, ResearchGroup
from people.sitemaps import PersonSitemap, ResearchAreaSitemap, ResearchGroupSitemap
from projects.models import Project
from projects.sitemaps import ProjectSitemap
from publications.sitemaps import PublicationSitemap


class SectionSitemap(LanguagesSitemap):
    """The home page and the lists: the groups', areas', events', outputs' and projects' only when the
    site has some."""

    def items(self):
        sections = ["home", "people:index", "publications:index", "news:index"]
        if ResearchGroup.objects.published().exists():
            sections.append("groups:index")
        if ResearchArea.objects.published().exists():
            sections.append("areas:index")
        if Event.objects.published().exists():
            sections.append("events:index")
        if Output.objects.published().exists():
            sections.append("outputs:index")
        if Project.objects.published().exists():
            sections.append("projects:index")
        return sections

    def location(self, name):
        return reverse(name)


SITEMAPS = {
    "sections": SectionSitemap,
    "people": PersonSitemap,
    "groups": ResearchGroupSitemap,
    "areas": ResearchAreaSitemap,
    "publications": PublicationSitemap,
    "news": NewsItemSitemap,
    "events": EventSitemap,
    "outputs": OutputSitemap,
    "projects": ProjectSitemap,
}
