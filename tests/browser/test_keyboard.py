"""Keyboard only (Tab, Shift+Tab, Enter, Space, Escape; the admin's arrow keys): the skip link
and every filter control, a filter's chip, the Abstract and Cite panels, the site search, the
chart's bars and the admin's author order, each step checked as a visitor sees it.

The accessibility statement lists these journeys (base/accessibility.py KEYBOARD_JOURNEYS);
tests/pages/test_accessibility_statement.py checks it names exactly the tests here."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import shell, signed_in_page
from tests.browser.test_finding_papers import ABSTRACT, GIVE_CAUSALMESH_AN_ABSTRACT

FOCUSED = """() => {
    const element = document.activeElement;
    const style = getComputedStyle(element);
    return {
        tag: element.tagName,
        id: element.id,
        name: element.getAttribute("name") || "",
        value: element.value || "",
        text: (element.innerText || "").trim(),
        checked: !!element.checked,
        ring: style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2,
        openPanel: !!element.closest("details")?.open,
        inFilters: !!element.closest("form.filters"),
        href: element.getAttribute("href") || "",
        label: element.getAttribute("aria-label") || "",
        classes: element.getAttribute("class") || "",
        rowId: element.closest("tr")?.id || "",
        panel: element.closest("details")?.querySelector(":scope > summary")?.innerText.trim() || "",
    };
}"""
FILTER_NAMES = {"q", "year_min", "year_max", "venue", "author", "type", "award"}


def tab_until(page, wanted, *, limit: int = 150) -> dict:
    """Press Tab until the focused element is `wanted`; opens the folded panel on a phone.
    Every filter control passed on the way must show a focus ring."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUSED)
        if focused["tag"] == "SUMMARY" and not focused["openPanel"]:
            page.keyboard.press("Enter")  # a phone starts with the filters folded
            continue
        if not focused["inFilters"]:
            continue  # the header's site search is a "q" too
        if focused["name"] in FILTER_NAMES:
            assert focused["ring"], f"no visible focus ring on {focused}"
        if wanted(focused):
            return focused
    raise AssertionError("Tab never reached the control")


def test_skip_link_then_every_filter_control_by_keyboard(page):
    page.goto("/publications/")

    page.keyboard.press("Tab")
    skip = page.evaluate(FOCUSED)
    assert skip["text"] == "Skip to main content"
    assert skip["ring"]
    expect(page.get_by_role("link", name="Skip to main content")).to_be_in_viewport()
    page.keyboard.press("Enter")
    assert page.evaluate(FOCUSED)["id"] == "main-content"

    reached = set()

    def every_control(focused) -> bool:
        reached.add(focused["name"])
        return reached >= FILTER_NAMES

    tab_until(page, every_control)

    # Words apply on Enter, an option on Space; focus comes back to the control each time.
    page.goto("/publications/")
    tab_until(page, lambda focused: focused["name"] == "q")
    page.keyboard.type("serverless")
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"\?q=serverless$"))
    expect(page.locator("form.filters input[name=q]")).to_be_focused()
    tab_until(page, lambda focused: focused["name"] == "venue" and focused["value"] == "OSDI")
    page.keyboard.press("Space")
    expect(page).to_have_url(re.compile(r"venue=OSDI"))
    expect(page.locator("input[value=OSDI]")).to_be_focused()
    focused = page.evaluate(FOCUSED)
    assert (focused["value"], focused["checked"], focused["ring"]) == ("OSDI", True, True)
    expect(page.locator(".result-count")).to_contain_text("1 publication matches")
    expect(page.locator(".publication__title")).to_have_text(
        ["Fault-tolerant and Transactional Stateful Serverless Workflows"]
    )
    expect(page.get_by_role("link", name="Remove filter Words: serverless")).to_be_visible()


def tab_to(page, wanted, *, key: str = "Tab", limit: int = 250) -> dict:
    """Press `key` (Tab or Shift+Tab) until the focused element is `wanted`; nothing is opened
    on the way."""
    for _ in range(limit):
        page.keyboard.press(key)
        focused = page.evaluate(FOCUSED)
        if wanted(focused):
            return focused
    raise AssertionError(f"{key} never reached the element")


def test_apply_a_facet_then_remove_its_chip_by_keyboard(page):
    page.goto("/publications/")
    tab_until(page, lambda focused: focused["name"] == "venue" and focused["value"] == "NSDI")
    page.keyboard.press("Space")
    expect(page).to_have_url(re.compile(r"venue=NSDI"))
    expect(page.locator(".result-count")).to_contain_text("match")
    chip = page.get_by_role("link", name="Remove filter Venue: NSDI")
    expect(chip).to_be_visible()
    titles = page.locator(".publication__title").count()

    focused = tab_to(page, lambda focused: focused["label"] == "Remove filter Venue: NSDI")
    assert focused["ring"], f"no visible focus ring on {focused}"
    page.keyboard.press("Enter")
    expect(page).not_to_have_url(re.compile(r"venue="))
    expect(page.get_by_role("link", name="Remove filter Venue: NSDI")).to_have_count(0)
    assert page.locator(".publication__title").count() > titles


@pytest.fixture(scope="module")
def with_an_abstract(site_url, server_environment):
    """The seeded profiles give no abstract: CausalMesh gets the one test_finding_papers.py
    gives it."""
    shell(server_environment, GIVE_CAUSALMESH_AN_ABSTRACT)


def test_abstract_and_cite_panels_open_and_close_by_keyboard(page, with_an_abstract):
    page.goto("/publications/?q=causalmesh")
    entry = page.locator("li.publication").first
    panels = entry.locator("details.publication__more")
    abstract, cite = panels.nth(0), panels.nth(1)
    expect(entry.locator(".publication__title")).to_contain_text("CausalMesh")

    focused = tab_to(
        page, lambda focused: focused["tag"] == "SUMMARY" and focused["text"].startswith("Abstract")
    )
    assert focused["ring"]
    page.keyboard.press("Enter")
    expect(abstract.locator(".publication__panel")).to_be_visible()
    expect(abstract.locator(".publication__panel")).to_contain_text(ABSTRACT)
    assert page.evaluate(FOCUSED)["text"].startswith("Abstract")  # focus stays on its button
    page.keyboard.press("Enter")
    expect(abstract.locator(".publication__panel")).to_be_hidden()

    # Cite opens with Space; Tab goes into its BibTeX, Escape closes it and comes back.
    tab_to(page, lambda focused: focused["tag"] == "SUMMARY" and focused["text"].startswith("Cite"))
    page.keyboard.press("Space")
    expect(cite.locator(".cite__bibtex")).to_be_visible()
    expect(cite.locator(".cite__bibtex")).to_contain_text("@")
    focused = tab_to(page, lambda focused: focused["tag"] == "PRE", limit=3)
    assert focused["panel"].startswith("Cite")
    page.keyboard.press("Escape")
    expect(cite.locator(".cite__bibtex")).to_be_hidden()
    assert page.evaluate(FOCUSED)["text"].startswith("Cite")
    # Shift+Tab goes back to Abstract, still closed.
    focused = tab_to(page, lambda focused: focused["tag"] == "SUMMARY", key="Shift+Tab", limit=3)
    assert focused["text"].startswith("Abstract")
    expect(abstract.locator(".publication__panel")).to_be_hidden()


def test_site_search_by_keyboard(page):
    page.goto("/")
    tab_to(page, lambda focused: focused["id"] == "site-search-q")
    page.keyboard.type("hang")
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/search/\?q=hang$"))
    expect(page.get_by_role("heading", name=re.compile("^People"))).to_be_visible()
    expect(page.locator("#site-search-q")).to_have_value("hang")

    focused = tab_to(
        page, lambda focused: focused["href"] == "/people/hang-zhu/" and focused["text"]
    )
    assert focused["ring"]
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"/people/hang-zhu/$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("Hang Zhu")


def test_chart_bars_are_links_reached_by_keyboard(page):
    page.goto("/people/hang-zhu/")
    focused = tab_to(page, lambda focused: "chart__link" in focused["classes"])
    match = re.fullmatch(r"(\d{4}): (\d+) publications?", focused["label"])
    assert match, focused
    year, count = match.groups()
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(rf"author=hang-zhu&year_min={year}&year_max={year}"))
    noun = "publication matches" if count == "1" else "publications match"
    expect(page.locator(".result-count")).to_contain_text(f"{count} {noun}")


def test_admin_author_order_has_keyboard_moves(browser, site_url, viewport_name):
    page = signed_in_page(browser, site_url, viewport=viewport_name)
    try:
        page.goto("/admin/publications/publication/?q=CausalMesh")
        page.goto(
            page.get_by_role("link", name=re.compile("CausalMesh")).first.get_attribute("href")
        )
        names = page.locator("#authorships-group input[name$='-name']")
        before = [names.nth(index).input_value() for index in range(4)]

        focused = tab_to(
            page,
            lambda focused: (
                "ordered-rows__handle" in focused["classes"] and focused["rowId"] == "authorships-2"
            ),
        )
        assert focused["label"].startswith("Move row 3 of ")
        page.keyboard.press("ArrowUp")
        expect(page.locator(".ordered-rows__status").first).to_have_text("Moved to place 2.")
        assert page.evaluate(FOCUSED)["rowId"] == "authorships-2"  # the moved row keeps the focus
        after = [names.nth(index).input_value() for index in range(4)]
        assert after == [before[0], before[2], before[1], before[3]]
        page.keyboard.press("ArrowDown")
        expect(page.locator(".ordered-rows__status").first).to_have_text("Moved to place 3.")
        assert [names.nth(index).input_value() for index in range(4)] == before
    finally:
        page.context.close()
