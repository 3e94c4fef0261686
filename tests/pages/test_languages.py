"""The public pages in English at their plain addresses and in Simplified Chinese under
/zh-hans/ (docs/decisions/languages.md): each language's strings, the switcher, the hreflang
alternates, and a page cache that never gives one language's page for the other.

These tests commit for real (transaction=True), as tests/test_site_cache.py does: the page
cache keeps pages only outside a transaction that wrote."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from directory import site_cache
from tests.factories import make_cached_site

pytestmark = pytest.mark.django_db(transaction=True)

PAGES = [
    "/",
    "/people/",
    "/people/hang-zhu/",
    "/publications/",
    "/publications/klotski/",
    "/news/",
    "/search/?q=klotski",
    "/accessibility/",
]


@pytest.fixture
def site():
    return make_cached_site()


def html_lang(response) -> str:
    match = re.search(r'<html lang="([^"]+)"', response.content.decode())
    assert match, "the page names no language"
    return match[1]


def alternates(response) -> dict[str, str]:
    links = re.findall(
        r'<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">', response.content.decode()
    )
    return dict(links)


@pytest.mark.parametrize("url", PAGES)
def test_every_page_is_in_chinese_under_its_prefix_and_english_at_its_plain_address(
    client, site, url
):
    # The address alone says the language: a browser preferring Chinese gets English at the
    # plain address, which does not vary by Accept-Language, so the page cache may keep it.
    english = client.get(url, headers={"Accept-Language": "zh-CN,zh;q=0.9"})
    chinese = client.get(f"/zh-hans{url}")
    assert english.status_code == chinese.status_code == 200
    assert "Accept-Language" not in english.get("Vary", "")
    assert (html_lang(english), english["Content-Language"]) == ("en", "en")
    assert (html_lang(chinese), chinese["Content-Language"]) == ("zh-hans", "zh-hans")


@pytest.mark.parametrize("first, second", [("", "/zh-hans"), ("/zh-hans", "")])
@pytest.mark.parametrize("url", ["/people/", "/publications/", "/people/hang-zhu/"])
def test_the_page_cache_never_gives_one_languages_page_for_the_other(
    client, site, url, first, second
):
    kept = client.get(f"{first}{url}")
    assert client.get(f"{first}{url}")[site_cache.CACHE_HEADER] == "hit"

    other = client.get(f"{second}{url}")
    assert other[site_cache.CACHE_HEADER] == "miss"
    assert html_lang(other) != html_lang(kept)
    assert other["ETag"] != kept["ETag"]
    # A validator of one language's page does not validate the other's.
    asked = client.get(f"{second}{url}", headers={"If-None-Match": kept["ETag"]})
    assert asked.status_code == 200
    assert html_lang(asked) == html_lang(other)


@pytest.mark.parametrize("url", PAGES)
def test_every_page_names_its_versions_in_each_language_for_search_engines(client, site, url):
    path = url.partition("?")[0]
    for prefix in ("", "/zh-hans"):
        response = client.get(f"{prefix}{url}")
        assert alternates(response) == {
            "en": f"http://testserver{path}",
            "zh-hans": f"http://testserver/zh-hans{path}",
            "x-default": f"http://testserver{path}",
        }


def test_the_language_switcher_is_plain_links_to_the_same_page_that_keep_its_filters(client, site):
    """It works without JavaScript and without a form: a link each, which a kept page can hold
    (a form posting to set_language would need a CSRF token, which a kept page cannot)."""
    english = client.get("/publications/?year=2023").content.decode()
    switcher = re.search(r'<nav class="language-switcher".*?</nav>', english, re.S)
    assert switcher, "no language switcher"
    links = re.findall(r'<a href="([^"]+)"[^>]*lang="([^"]+)"', switcher[0])
    assert links == [
        ("/publications/?year=2023", "en"),
        ("/zh-hans/publications/?year=2023", "zh-hans"),
    ]
    followed = client.get(links[1][0])
    assert followed.status_code == 200
    assert html_lang(followed) == "zh-hans"
    assert 'aria-current="true">简体中文</a>' in followed.content.decode()


@pytest.mark.parametrize("url", PAGES)
def test_a_page_in_chinese_costs_the_queries_it_costs_in_english(client, site, url, settings):
    settings.SITE_CACHE = False
    counts = []
    for prefix in ("", "/zh-hans", "", "/zh-hans"):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(f"{prefix}{url}").status_code == 200
        counts.append(len(queries))
    # The second round: the kept counts and fragments of each language are warm.
    assert counts[2] == counts[3]
