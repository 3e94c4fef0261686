"""Every public address keeps its path and its name, and its view lives in the pages app: a
newcomer finds /people/ada/ in pages/views/, not spliced in from the project package. Feeds
stay with their apps (they are not HTML pages); the sitemap is Django's view."""

import pytest
from django.urls import URLResolver, get_resolver, resolve, reverse

# (name, arguments, the path it has always had)
PUBLIC_PAGES = [
    ("home", {}, "/"),
    ("search", {}, "/search/"),
    ("robots-txt", {}, "/robots.txt"),
    ("favicon", {}, "/favicon.ico"),
    ("identity-css", {}, "/identity.css"),
    ("healthz", {}, "/healthz"),
    ("people:index", {}, "/people/"),
    ("people:detail", {"slug": "ada"}, "/people/ada/"),
    ("people:cv", {"slug": "ada"}, "/people/ada/cv/"),
    ("people:cv-pdf", {"slug": "ada"}, "/people/ada/cv.pdf"),
    ("publications:index", {}, "/publications/"),
    ("publications:detail", {"slug": "klotski"}, "/publications/klotski/"),
    ("publications:export", {"format": "bib"}, "/publications/export.bib"),
    ("publications:embed", {}, "/publications/embed/"),
    ("publications:citation", {"slug": "klotski"}, "/publications/klotski.bib"),
    ("publications:claims", {"slug": "klotski"}, "/publications/klotski/claims/"),
    ("news:index", {}, "/news/"),
    ("news:detail", {"slug": "award"}, "/news/award/"),
    ("events:index", {}, "/events/"),
    ("events:detail", {"slug": "keynote"}, "/events/keynote/"),
    ("events:calendar", {}, "/events/calendar.ics"),
    ("events:event-calendar", {"slug": "keynote"}, "/events/keynote.ics"),
    ("outputs:index", {}, "/outputs/"),
    ("outputs:detail", {"slug": "traces"}, "/outputs/traces/"),
    ("outputs:export", {"format": "bib"}, "/outputs/export.bib"),
    ("outputs:citation", {"slug": "traces"}, "/outputs/traces.bib"),
    ("outputs:csl", {"slug": "traces"}, "/outputs/traces.json"),
    ("outputs:citation-cff", {"slug": "tool"}, "/outputs/tool/CITATION.cff"),
    ("outputs:codemeta", {"slug": "tool"}, "/outputs/tool/codemeta.json"),
    ("projects:index", {}, "/projects/"),
    ("projects:detail", {"slug": "optics"}, "/projects/optics/"),
    ("groups:index", {}, "/groups/"),
    ("groups:detail", {"slug": "systems"}, "/groups/systems/"),
    ("areas:index", {}, "/areas/"),
    ("areas:detail", {"slug": "networks"}, "/areas/networks/"),
    ("network", {}, "/network/"),
    ("accessibility", {}, "/accessibility/"),
]

FEEDS = [
    ("publications:feed", "/publications/feed/", "publications.feeds"),
    ("news:feed", "/news/feed/", "news.feeds"),
    ("outputs:feed", "/outputs/feed/", "outputs.feeds"),
    ("projects:feed", "/projects/feed/", "projects.feeds"),
]


@pytest.mark.parametrize(("name", "kwargs", "path"), PUBLIC_PAGES)
def test_every_public_page_keeps_its_address_and_is_served_by_the_pages_app(name, kwargs, path):
    assert reverse(name, kwargs=kwargs) == path
    match = resolve(path)
    assert match.view_name == name
    assert match.func.__module__.startswith("pages.views."), match.func.__module__


# Not public pages: the admin, the API and the institutional sign-in's flows (django-allauth,
# signin/), each served by its own library.
NOT_PAGES = {"admin/", "api/", "accounts/"}


def public_views(patterns=None, namespace=""):
    """(name, view) of every named address outside the admin, the API and the sign-in."""
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            if str(pattern.pattern) not in NOT_PAGES and pattern.namespace not in ("admin", "api"):
                inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
                yield from public_views(pattern.url_patterns, inner)
        elif pattern.name:
            yield f"{namespace}{pattern.name}", pattern.callback


def test_every_named_public_address_is_a_page_of_the_pages_app_or_a_feed_of_its_own_app():
    feeds = {name: module for name, _, module in FEEDS}
    found = dict(public_views())
    assert set(found) == {name for name, _, _ in PUBLIC_PAGES} | set(feeds) | {"sitemap"}
    for name, view in found.items():
        module = type(view).__module__ if name in feeds else view.__module__
        expected = feeds.get(name, "django.contrib.sitemaps.views" if name == "sitemap" else "")
        assert module.startswith(expected or "pages.views."), (name, module)
    for name, path, _ in FEEDS:
        assert reverse(name) == path


def test_the_sitemap_gathers_its_sections_from_the_pages_app():
    match = resolve(reverse("sitemap"))
    assert reverse("sitemap") == "/sitemap.xml"
    assert match.kwargs["sitemaps"]["sections"].__module__ == "pages.sitemaps"
