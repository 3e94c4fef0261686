import re

from django.conf import settings
from django.contrib import admin
from django.contrib.sitemaps.views import sitemap
from django.urls import include, path, re_path
from django.views.static import serve

from config import views
from config.api import api
from config.sitemaps import SITEMAPS
from news import urls as news_urls
from people import urls as people_urls
from people import views as people_views
from publications import urls as publications_urls


def with_composed_detail(app_urls, view, *pages):
    """An app's URLs plus its detail page (and `pages` beside it), which config/views.py
    composes with other apps.

    Appended last, so the app's own fixed paths ("feed/", "export.bib") still come first.
    """
    patterns = [*app_urls.urlpatterns, *pages, path("<slug:slug>/", view, name="detail")]
    return include((patterns, app_urls.app_name))


# The department's sections: the people app lists groups and areas; their pages compose the
# apps above it, so their views are config/views.py's.
groups_urls = [
    path("", people_views.groups, name="index"),
    path("<slug:slug>/", views.group, name="detail"),
]
areas_urls = [
    path("", people_views.areas, name="index"),
    path("<slug:slug>/", views.area, name="detail"),
]

urlpatterns = [
    path("", views.home, name="home"),
    path("sitemap.xml", sitemap, {"sitemaps": SITEMAPS}, name="sitemap"),
    path("search/", views.search, name="search"),
    path("robots.txt", views.robots_txt, name="robots-txt"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("healthz", views.healthz, name="healthz"),
    path(
        "people/",
        with_composed_detail(
            people_urls,
            views.profile,
            path("<slug:slug>/cv/", views.cv, name="cv"),
            path("<slug:slug>/cv.pdf", views.cv_pdf, name="cv-pdf"),
        ),
    ),
    path("publications/", with_composed_detail(publications_urls, views.publication)),
    path("news/", include(news_urls)),
    path("api/", api.urls),
    path("groups/", include((groups_urls, "groups"))),
    path("areas/", include((areas_urls, "areas"))),
    path("admin/", admin.site.urls),
]

if settings.SERVE_MEDIA:
    # Uploaded photos served by Django itself: for development and one-machine sites. Larger
    # sites let the web server or an object store (MEDIA_STORAGE) serve MEDIA_URL instead.
    urlpatterns += [
        re_path(
            rf"^{re.escape(settings.MEDIA_URL.lstrip('/'))}(?P<path>.*)$",
            serve,
            {"document_root": settings.MEDIA_ROOT},
        )
    ]
