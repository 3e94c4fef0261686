"""A research group's page and a profile's advisors, at phone and desktop sizes, in light and
dark: accessible (axe finds nothing serious), fitting the screen, and the group's filters
working without JavaScript.

The seeded site has no research group (fixtures/NOTES.md), so this module adds one to the
served site's database for its own tests (conftest's `research_group`), and removes it after
its last test: the other browser modules see the seeded site as it is.
"""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import GROUP, has_horizontal_scroll, screenshot
from tests.browser.test_pages import blocking_violations

PROFILE = "/people/zerui-wang/"

pytestmark = pytest.mark.usefixtures("research_group")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_group_page_is_accessible_and_fits_the_screen(page, viewport_name, scheme):
    page.emulate_media(color_scheme=scheme)
    assert page.goto(GROUP).status == 200
    expect(page.get_by_role("heading", name="Machine Learning Systems", level=1)).to_be_visible()
    for heading in ["People", "Publications", "News", "Alumni"]:
        expect(page.get_by_role("heading", name=heading, level=2)).to_be_visible()
    if viewport_name == "phone":
        page.get_by_text("Menu", exact=True).click()  # the sections are behind the menu
    main_nav = page.get_by_role("navigation", name="Main")
    expect(main_nav.get_by_role("link", name="Groups")).to_have_attribute("aria-current", "page")
    expect(page.get_by_text("Now at NVIDIA ADLR")).to_be_visible()

    assert blocking_violations(page) == []
    assert not has_horizontal_scroll(page)
    if scheme == "light":
        screenshot(page, f"group-{viewport_name}")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_profile_names_its_advisors_among_its_first_facts(page, viewport_name, scheme):
    page.emulate_media(color_scheme=scheme)
    assert page.goto(PROFILE).status == 200
    advisors = page.locator(".profile__advisors")
    expect(advisors).to_have_text("Advised by Dahua Lin (supervisor) and Rong Chen (supervisor)")
    # Among the key facts: within the first screen, on a phone too.
    expect(advisors).to_be_in_viewport()
    expect(page.locator(".profile__groups")).to_contain_text("Machine Learning Systems")
    # Said once: no "Advisors" section repeats them further down.
    expect(page.get_by_role("heading", name="Advisors")).to_have_count(0)
    expect(page.get_by_text("Advised by")).to_have_count(1)
    expect(page.get_by_role("heading", name="Outside the lab")).to_be_attached()

    assert blocking_violations(page) == []
    assert not has_horizontal_scroll(page)
    if scheme == "light":
        screenshot(page, f"profile-advisors-{viewport_name}")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_lists_of_groups_and_areas_an_area_and_a_search_are_accessible(
    page, viewport_name, scheme
):
    page.emulate_media(color_scheme=scheme)
    for url, heading in [
        ("/groups/", "Research groups"),
        ("/areas/", "Research areas"),
        ("/areas/ml-systems-area/", "Machine learning systems"),
        ("/search/?q=machine", "Search"),
    ]:
        assert page.goto(url).status == 200
        expect(page.get_by_role("heading", name=heading, level=1)).to_be_visible()
        assert blocking_violations(page) == [], url
        assert not has_horizontal_scroll(page), url
    page.goto("/groups/")
    card = page.locator(".group-card", has_text="Machine Learning Systems")
    expect(card.get_by_role("link", name="Hao Zhang")).to_be_visible()
    expect(card.get_by_role("link", name="Machine learning systems", exact=True)).to_be_visible()
    page.goto("/search/?q=machine")
    results = page.get_by_role("region", name="Research groups")
    expect(results.get_by_role("link", name="Machine Learning Systems", exact=True)).to_be_visible()


def test_a_group_pages_filters_work_without_javascript(browser, site_url):
    context = browser.new_context(base_url=site_url, java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(GROUP)
        all_papers = page.locator(".publication").count()
        page.get_by_role("checkbox", name="NSDI").check()
        page.get_by_role("button", name="Apply filters").click()
        page.wait_for_load_state("load")
        assert GROUP in page.url and "venue=NSDI" in page.url
        assert 0 < page.locator(".publication").count() < all_papers
        export = page.get_by_role("link", name="BibTeX").get_attribute("href")
        assert export.startswith("/publications/export.bib?group=ml-systems&")
        assert "venue=NSDI" in export
    finally:
        context.close()
