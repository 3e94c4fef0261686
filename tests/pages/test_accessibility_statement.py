"""/accessibility/: the accessibility statement says what the browser tests check, no more and
no less. Its lists are compared with the tests pytest collects from tests/browser/."""

import re
from html import unescape

import pytest

from base import accessibility
from base.models import Lab
from tests.collecting import collected

pytestmark = pytest.mark.django_db


def listed(html: str, list_id: str) -> list[str]:
    """The text of each item of the statement's list `list_id`, tags dropped."""
    body = html.split(f'<ul id="{list_id}">', 1)[1].split("</ul>", 1)[0]
    return [
        unescape(re.sub(r"<[^>]+>", "", item)).strip()
        for item in re.findall(r"<li>(.*?)</li>", body, re.S)
    ]


@pytest.fixture(scope="module")
def browser_tests() -> list[str]:
    return collected(
        "tests/browser/test_pages.py",
        "tests/browser/test_keyboard.py",
        "tests/browser/test_html_checker.py",
    )


def test_the_statement_lists_exactly_the_pages_sizes_and_schemes_axe_checks(client, browser_tests):
    html = client.get("/accessibility/").content.decode()
    runs = set()
    for test in browser_tests:
        if test.startswith("tests/browser/test_pages.py::"):
            parameters = test.split("[", 1)[1].rstrip("]")
            viewport, rest = parameters.split("-", 1)
            name, scheme = rest.rsplit("-", 1)
            runs.add((viewport, name, scheme))
    pages = accessibility.pages_checked_by(accessibility.AXE)

    # Every page type at every size in every scheme: the statement's three lists, crossed.
    stated_pages = listed(html, "axe-pages")
    assert stated_pages == [f"{page.label} ({page.path})" for page in pages.values()]
    stated_sizes = listed(html, "viewports")
    assert stated_sizes == [
        f"{name.capitalize()}: {size['width']} × {size['height']} pixels"
        for name, size in accessibility.VIEWPORTS.items()
    ]
    assert listed(html, "schemes") == [
        f"{scheme.capitalize()} colour scheme" for scheme in accessibility.SCHEMES
    ]
    assert runs == {
        (viewport, name, scheme)
        for viewport in accessibility.VIEWPORTS
        for name in pages
        for scheme in accessibility.SCHEMES
    }
    assert "WCAG 2.2 at level AA" in html


def test_the_statement_lists_exactly_the_pages_the_html_checker_reads(client, browser_tests):
    from tests.browser import test_html_checker

    assert "tests/browser/test_html_checker.py::test_every_page_type_is_valid_html" in browser_tests
    html = client.get("/accessibility/").content.decode()
    checked = [f"{page.label} ({page.path})" for page in test_html_checker.PAGES.values()]
    assert listed(html, "nu-pages") == checked


def test_the_statement_lists_exactly_the_keyboard_journeys_the_suite_runs(client, browser_tests):
    html = client.get("/accessibility/").content.decode()
    journeys = {
        test.split("::", 1)[1].split("[", 1)[0]: test.split("[", 1)[1].rstrip("]")
        for test in browser_tests
        if test.startswith("tests/browser/test_keyboard.py::")
    }
    assert set(journeys) == {journey.test for journey in accessibility.KEYBOARD_JOURNEYS}
    sizes = {
        (test.split("::", 1)[1].split("[", 1)[0], test.split("[", 1)[1].rstrip("]"))
        for test in browser_tests
        if test.startswith("tests/browser/test_keyboard.py::")
    }
    # Each at every screen size, as the statement says.
    assert sizes == {(journey, size) for journey in journeys for size in accessibility.VIEWPORTS}
    assert listed(html, "journeys") == [
        journey.description for journey in accessibility.KEYBOARD_JOURNEYS
    ]


def test_the_statement_names_the_labs_contact_address_from_the_lab_settings(client):
    html = client.get("/accessibility/").content.decode()
    assert "mailto:" not in html
    Lab.objects.filter(pk=Lab.objects.current().pk).update(contact_email="access@example.org")
    html = client.get("/accessibility/").content.decode()
    assert 'href="mailto:access@example.org"' in html


def test_every_page_links_to_the_statement(client):
    html = client.get("/").content.decode()
    assert '<a href="/accessibility/">Accessibility</a>' in html


def test_every_public_page_type_is_checked_in_chinese_too(client):
    """axe and the Nu checker read each public page type under /zh-hans/ as well, with the same
    checks; the staff sign-in and the API's documentation are in English only."""
    pages = {page.name: page for page in accessibility.PAGE_TYPES}
    english = [page for page in pages.values() if not page.path.startswith("/zh-hans/")]
    public = [page for page in english if page.name not in {"admin-login", "api-docs"}]
    assert len(public) >= 19
    for page in public:
        chinese = pages.get(f"{page.name}-zh-hans")
        assert chinese, f"{page.name} is not checked in Chinese"
        assert (chinese.path, chinese.checks, chinese.status) == (
            f"/zh-hans{page.path}",
            page.checks,
            page.status,
        )
    html = client.get("/accessibility/").content.decode()
    assert "Home page, in Chinese (/zh-hans/)" in listed(html, "axe-pages")
    assert "A member's CV, in Chinese (/zh-hans/people/hang-zhu/cv/)" in listed(html, "nu-pages")


def test_the_statement_reads_in_chinese_with_the_same_facts_under_zh_hans(client):
    """Its sentences are translated (locale/zh_Hans); its lists are the same lists, each item
    in Chinese, so the Chinese statement says what the tests run too."""
    english = client.get("/accessibility/").content.decode()
    chinese = client.get("/zh-hans/accessibility/").content.decode()
    assert '<h2 id="standard">我们遵循的标准</h2>' in chinese
    assert "已知的不足" in chinese and "Known limitations" not in chinese
    assert "in English only" not in chinese and "此声明仅有英文版" not in chinese
    assert 'lang="en"' not in chinese.split("<main", 1)[1].split("</main>", 1)[0]
    for list_id in ("viewports", "schemes", "axe-pages", "nu-pages", "journeys"):
        assert len(listed(chinese, list_id)) == len(listed(english, list_id)), list_id
        assert listed(chinese, list_id) != listed(english, list_id), list_id
    assert "首页（/）" in listed(chinese, "axe-pages")
    assert "首页（中文版）（/zh-hans/）" in listed(chinese, "axe-pages")
    assert listed(chinese, "viewports")[0] == "手机：390 × 844 像素"
    assert "评为严重或危急的问题会阻止发布" in chinese
    assert "WCAG 2.2 at level AA" in chinese  # the standard's own name, as the tests state it
