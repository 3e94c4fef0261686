import re

from django.conf import settings
from django.contrib import admin
from django.contrib.sitemaps.views import sitemap
from django.urls import include, path, re_path
from django.views.static import serve

from config import views
from config.sitemaps import SITEMAPS
from news import urls as news_urls
from people import urls as people_urls
from publications import urls as publications_urls


def with_composed_detail(app_urls, view):
    """An app's URLs plus its detail page, which config/views.py composes with other apps.

    Appended last, so the app's own fixed paths ("feed/", "export.bib") still come first.
    """
    patterns = [*app_urls.urlpatterns, path("<slug:slug>/", view, name="detail")]
    return include((patterns, app_urls.app_name))


urlpatterns = [
    path("", views.home, name="home"),
    path("sitemap.xml", sitemap, {"sitemaps": SITEMAPS}, name="sitemap"),
    path("search/", views.search, name="search"),
    path("robots.txt", views.robots_txt, name="robots-txt"),
    path("healthz", views.healthz, name="healthz"),
    path("people/", with_composed_detail(people_urls, views.profile)),
    path("publications/", with_composed_detail(publications_urls, views.publication)),
    path("news/", include(news_urls)),
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
