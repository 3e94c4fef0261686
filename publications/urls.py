from django.urls import path, re_path

from publications import views
from publications.feeds import PublicationFeed

app_name = "publications"

# A publication's page, "publications:detail" (/publications/<slug>/), shows the news about it
# too, so it is composed above the apps: config.views.publication, added by config/urls.py.
urlpatterns = [
    path("", views.index, name="index"),
    # Before the slug patterns: "export.bib" and "feed" would otherwise read as slugs.
    re_path(r"^export\.(?P<format>bib|ris|json|csv)$", views.export, name="export"),
    path("feed/", PublicationFeed(), name="feed"),
    path("embed/", views.embed, name="embed"),
    re_path(r"^(?P<slug>[-a-zA-Z0-9_]+)\.bib$", views.citation, name="citation"),
]
