import re

from django.conf import settings
from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import URLPattern, URLResolver, include, path, re_path
from django.views.static import serve

from config.api import api
from pages.urls import page_patterns

# The public pages (pages/urls.py) at the root, with their namespaces; none of their paths
# begins with "api/" or "admin/". Each in English at its plain address and in every other
# language under its prefix (/zh-hans/people/); the files for machines (robots.txt, the
# sitemap) once. docs/decisions/languages.md says why the address carries the language.
urlpatterns: list[URLPattern | URLResolver] = [
    *i18n_patterns(path("", include(page_patterns)), prefix_default_language=False),
    path("", include("pages.urls")),
    path("api/", api.urls),
    path("admin/", admin.site.urls),
    # Institutional sign-in (signin/): django-allauth's OpenID Connect and SAML flows. Its
    # password and sign-up forms are off (SOCIALACCOUNT_ONLY, signin.adapters). Its OpenID
    # Connect views come from signin/urls.py, which checks the ID token whole.
    path("accounts/", include("signin.urls")),
    path("accounts/", include("allauth.urls")),
]

# A request that could not have SQLite's write lock in time answers 503 "busy", with
# Retry-After; any other error the site's 500 page (base/write_lock.py).
handler500 = "base.write_lock.server_error"

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
