"""Every public page's address. The namespaces are the apps' (`people:`, `publications:`,
`news:`, `groups:`, `areas:`) so a page is reversed by the app it shows, whichever of the views
in pages/views/ builds it; config/urls.py mounts these at the site's root beside the API and
the admin."""

from django.contrib.sitemaps.views import sitemap
from django.urls import include, path, re_path

from news.feeds import NewsFeed
from pages.sitemaps import SITEMAPS
from pages.views import composed, news, people, publications
from publications.feeds import PublicationFeed

# The profile, "people:detail" (/people/<slug>/), composes this app with the publications and
# news above it: its view is composed.profile, as are the CV's.
people_urls = [
    path("", people.index, name="index"),
    path("<slug:slug>/cv/", composed.cv, name="cv"),
    path("<slug:slug>/cv.pdf", composed.cv_pdf, name="cv-pdf"),
    path("<slug:slug>/", composed.profile, name="detail"),
]

# A publication's page, "publications:detail" (/publications/<slug>/), shows the news about it
# too: composed.publication. Last, so the fixed paths ("feed/", "export.bib") come first.
publications_urls = [
    path("", publications.index, name="index"),
    # Before the slug patterns: "export.bib" and "feed" would otherwise read as slugs.
    re_path(r"^export\.(?P<format>bib|ris|json|csv)$", publications.export, name="export"),
    path("feed/", PublicationFeed(), name="feed"),
    path("embed/", publications.embed, name="embed"),
    re_path(r"^(?P<slug>[-a-zA-Z0-9_]+)\.bib$", publications.citation, name="citation"),
    path("<slug:slug>/", composed.publication, name="detail"),
]

news_urls = [
    path("", news.index, name="index"),
    # Before the slug pattern, which would otherwise read "feed" as a news item.
    path("feed/", NewsFeed(), name="feed"),
    path("<slug:slug>/", news.detail, name="detail"),
]

# The department's sections: the lists of groups and areas show the people app's rows; their
# pages compose the apps above it.
groups_urls = [
    path("", people.groups, name="index"),
    path("<slug:slug>/", composed.group, name="detail"),
]
areas_urls = [
    path("", people.areas, name="index"),
    path("<slug:slug>/", composed.area, name="detail"),
]

urlpatterns = [
    path("", composed.home, name="home"),
    path("sitemap.xml", sitemap, {"sitemaps": SITEMAPS}, name="sitemap"),
    path("search/", composed.search, name="search"),
    path("robots.txt", composed.robots_txt, name="robots-txt"),
    path("favicon.ico", composed.favicon, name="favicon"),
    path("healthz", composed.healthz, name="healthz"),
    path("people/", include((people_urls, "people"))),
    path("publications/", include((publications_urls, "publications"))),
    path("news/", include((news_urls, "news"))),
    path("groups/", include((groups_urls, "groups"))),
    path("areas/", include((areas_urls, "areas"))),
]
