"""Every public page's address. The namespaces are the apps' (`people:`, `publications:`,
`outputs:`, `projects:`, `news:`, `events:`, `groups:`, `areas:`), and each address's view is in the module of pages/views/ named
by its first path segment (the root's in home.py). config/urls.py mounts these at the site's
root beside the API and the admin: `page_patterns` once per language, `urlpatterns` once."""

from django.contrib.sitemaps.views import sitemap
from django.urls import URLPattern, URLResolver, include, path, re_path

from news.feeds import NewsFeed
from outputs.feeds import OutputFeed
from pages.sitemaps import SITEMAPS
from pages.views import (
    accessibility,
    areas,
    events,
    groups,
    home,
    network,
    news,
    outputs,
    people,
    projects,
    publications,
    search,
)
from projects.feeds import ProjectFeed
from publications.feeds import PublicationFeed

people_urls = [
    path("", people.index, name="index"),
    path("<slug:slug>/cv/", people.cv, name="cv"),
    path("<slug:slug>/cv.pdf", people.cv_pdf, name="cv-pdf"),
    path("<slug:slug>/", people.profile, name="detail"),
]

publications_urls = [
    path("", publications.index, name="index"),
    # Before the slug patterns: "export.bib" and "feed" would otherwise read as slugs.
    re_path(r"^export\.(?P<format>bib|ris|json|csv)$", publications.export, name="export"),
    path("feed/", PublicationFeed(), name="feed"),
    path("embed/", publications.embed, name="embed"),
    re_path(r"^(?P<slug>[-a-zA-Z0-9_]+)\.bib$", publications.citation, name="citation"),
    path("<slug:slug>/claims/", publications.claims, name="claims"),
    # Last, so the fixed paths ("feed/", "export.bib") come first.
    path("<slug:slug>/", publications.publication, name="detail"),
]

news_urls = [
    path("", news.index, name="index"),
    # Before the slug pattern, which would otherwise read "feed" as a news item.
    path("feed/", NewsFeed(), name="feed"),
    path("<slug:slug>/", news.detail, name="detail"),
]

events_urls = [
    path("", events.index, name="index"),
    # Before the slug patterns, which would otherwise read "calendar" as an event.
    path("calendar.ics", events.calendar, name="calendar"),
    re_path(r"^(?P<slug>[-a-zA-Z0-9_]+)\.ics$", events.event_calendar, name="event-calendar"),
    path("<slug:slug>/", events.detail, name="detail"),
]

outputs_urls = [
    path("", outputs.index, name="index"),
    # Before the slug patterns, which would otherwise read "feed" as an output.
    path("feed/", OutputFeed(), name="feed"),
    re_path(r"^export\.(?P<format>bib|json)$", outputs.export, name="export"),
    re_path(r"^(?P<slug>[-a-zA-Z0-9_]+)\.bib$", outputs.citation, name="citation"),
    re_path(r"^(?P<slug>[-a-zA-Z0-9_]+)\.json$", outputs.csl, name="csl"),
    path("<slug:slug>/CITATION.cff", outputs.citation_cff, name="citation-cff"),
    path("<slug:slug>/codemeta.json", outputs.codemeta, name="codemeta"),
    path("<slug:slug>/", outputs.detail, name="detail"),
]

projects_urls = [
    path("", projects.index, name="index"),
    # Before the slug pattern, which would otherwise read "feed" as a project.
    path("feed/", ProjectFeed(), name="feed"),
    path("<slug:slug>/", projects.detail, name="detail"),
]

groups_urls = [
    path("", groups.groups, name="index"),
    path("<slug:slug>/", groups.group, name="detail"),
]
areas_urls = [
    path("", areas.areas, name="index"),
    path("<slug:slug>/", areas.area, name="detail"),
]

# The pages a reader reads, in each of settings.LANGUAGES: config/urls.py mounts them through
# i18n_patterns, English at the root and the others under their prefix (/zh-hans/people/).
page_patterns: list[URLPattern | URLResolver] = [
    path("", home.home, name="home"),
    path("search/", search.search, name="search"),
    path("network/", network.network, name="network"),
    path("accessibility/", accessibility.statement, name="accessibility"),
    path("people/", include((people_urls, "people"))),
    path("publications/", include((publications_urls, "publications"))),
    path("news/", include((news_urls, "news"))),
    path("events/", include((events_urls, "events"))),
    path("outputs/", include((outputs_urls, "outputs"))),
    path("projects/", include((projects_urls, "projects"))),
    path("groups/", include((groups_urls, "groups"))),
    path("areas/", include((areas_urls, "areas"))),
]

# Files for machines, the same in every language: at one address only.
urlpatterns = [
    path("sitemap.xml", sitemap, {"sitemaps": SITEMAPS}, name="sitemap"),
    path("robots.txt", home.robots_txt, name="robots-txt"),
    path("favicon.ico", home.favicon, name="favicon"),
    path("identity.css", home.identity_css, name="identity-css"),
    path("healthz", home.healthz, name="healthz"),
]
