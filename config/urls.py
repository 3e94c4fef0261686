import re

from django.conf import settings
from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path, re_path
from django.views.static import serve

from config.api import api

# The public pages (pages/urls.py) at the root, with their namespaces; none of their paths
# begins with "api/" or "admin/".
urlpatterns: list[URLPattern | URLResolver] = [
    path("", include("pages.urls")),
    path("api/", api.urls),
    path("admin/", admin.site.urls),
    # Institutional sign-in (signin/): django-allauth's OpenID Connect and SAML flows. Its
    # password and sign-up forms are off (SOCIALACCOUNT_ONLY, signin.adapters).
    path("accounts/", include("allauth.urls")),
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
