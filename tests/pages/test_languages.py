"""The public pages in English at their plain addresses and in Simplified Chinese under
/zh-hans/ (docs/decisions/languages.md): each language's strings, the switcher, the hreflang
alternates, and a page cache that never gives one language's page for the other.

These tests commit for real (transaction=True), as tests/base/test_site_cache.py does: the page
cache keeps pages only outside a transaction that wrote."""

import ast
import gettext
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from base import site_cache
from people.models import Education
from tests.factories import make_cached_site, make_news

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


# Words each page shows in each language: the header's, and one of the page's own, some from
# parts kept apart from the page ({% cache %} fragments, a list's entries).
WORDS = {
    "/": {
        "en": ["Skip to main content", "Recent publications"],
        "zh-hans": ["跳到主要内容", "最新论文"],
    },
    "/people/": {
        "en": ["<h1>People</h1>", "Name or research interest"],
        "zh-hans": ["<h1>成员</h1>", "姓名或研究兴趣"],
    },
    "/people/hang-zhu/": {
        "en": ["Publications per year", "Export all:"],
        "zh-hans": ["每年论文数", "全部导出："],
    },
    "/publications/": {
        "en": ["Apply filters", "Publications per year", ">Cite<", "<legend>Lab member</legend>"],
        "zh-hans": ["应用筛选", "每年论文数", ">引用<", "<legend>实验室成员</legend>"],
    },
    "/publications/klotski/": {
        "en": ["Download BibTeX (.bib)"],
        "zh-hans": ["下载 BibTeX（.bib）"],
    },
    "/news/": {"en": ["<h1>News</h1>"], "zh-hans": ["<h1>新闻</h1>"]},
    "/search/?q=klotski": {
        "en": ["Search results for “klotski”"],
        "zh-hans": ["“klotski”的搜索结果"],
    },
    "/accessibility/": {
        "en": ["<h1>Accessibility</h1>"],
        "zh-hans": ["<h1>无障碍声明</h1>", "我们遵循的标准"],
    },
}


def assert_in_language(response, url: str, language: str) -> None:
    page = response.content.decode()
    other = "en" if language == "zh-hans" else "zh-hans"
    for words in WORDS[url][language]:
        assert words in page, f"{words!r} missing from {url} in {language}"
    for words in WORDS[url][other]:
        assert words not in page, f"{words!r} on {url} in {language}"


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
    assert_in_language(english, url, "en")
    assert_in_language(chinese, url, "zh-hans")


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
    # The parts kept apart from the page (filters, chart, each paper's entry) too.
    assert_in_language(kept, url, html_lang(kept))
    assert_in_language(other, url, html_lang(other))


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


def test_every_string_of_the_chinese_catalogue_is_translated_and_compiled():
    """The .po is what translators edit; the committed .mo is what the site reads."""
    folder = Path(settings.BASE_DIR) / "locale" / "zh_Hans" / "LC_MESSAGES"
    entries = read_po(folder / "django.po")
    assert len(entries) > 100
    untranslated = [msgid for msgid, msgstr in entries.items() if not msgstr]
    assert not untranslated
    with open(folder / "django.mo", "rb") as compiled:
        catalogue = gettext.GNUTranslations(compiled)
    stale = [msgid for msgid, msgstr in entries.items() if catalogue.gettext(msgid) != msgstr]
    assert not stale, "compile the catalogue again: manage.py compilemessages"


def read_po(path: Path) -> dict[str, str]:
    """msgid (after its context, if any): its (first) translation, from a .po file's entries."""
    entries: dict[str, str] = {}
    for block in path.read_text().split("\n\n"):
        fields: dict[str, str] = {}
        name = ""
        for line in block.splitlines():
            if line.startswith("#"):
                continue
            if not line.startswith('"'):
                name, _, line = line.partition(" ")
                fields.setdefault(name, "")
            fields[name] += ast.literal_eval(line)
        if fields.get("msgid"):
            # A string with a context (pgettext) is kept under "context\x04msgid".
            key = "\x04".join(filter(None, [fields.get("msgctxt"), fields["msgid"]]))
            entries[key] = fields.get("msgstr", fields.get("msgstr[0]", ""))
    return entries


def test_dates_are_written_the_way_each_language_writes_them(client, site):
    """News dates and CV periods are partial dates: English keeps the form staff type
    ("5 Mar 2024"), Chinese uses Django's Chinese formats."""
    make_news(title="Klotski at NSDI", date="2024-03-05", body="The talk.")
    Education.objects.create(
        person=site,
        degree="Ph.D.",
        institution="Peking University",
        start="2019-09",
        is_current=True,
    )
    english = (
        client.get("/news/").content.decode() + client.get("/people/hang-zhu/").content.decode()
    )
    chinese = (
        client.get("/zh-hans/news/").content.decode()
        + client.get("/zh-hans/people/hang-zhu/").content.decode()
    )
    assert "5 Mar 2024" in english
    assert "Sep 2019 – Present" in english
    assert "2024年3月5日" in chinese
    assert "2019年9月 – 至今" in chinese
    assert "Mar 2024" not in chinese
