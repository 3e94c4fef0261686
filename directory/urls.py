import re

from django.conf import settings
from django.contrib import admin
from django.contrib.sitemaps.views import sitemap
from django.urls import include, path, re_path
from django.views.static import serve

from directory import views
from directory.health import healthz
from directory.sitemaps import SITEMAPS

urlpatterns = [
    path("", views.home, name="home"),
    path("sitemap.xml", sitemap, {"sitemaps": SITEMAPS}, name="sitemap"),
    path("robots.txt", views.robots_txt, name="robots-txt"),
    path("healthz", healthz, name="healthz"),
    path("people/", include("people.urls")),
    path("publications/", include("publications.urls")),
    path("news/", include("news.urls")),
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
