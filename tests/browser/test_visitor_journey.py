"""A visitor's path through the site, with clicks and form controls only, on a phone and a
desktop: home, people, a profile, their publications, filters, a publication, back."""

import re

from playwright.sync_api import expect

from tests.browser.conftest import has_horizontal_scroll


def open_filters_if_folded(page) -> None:
    """On a phone the filters start folded under a "Filters" summary."""
    panel = page.locator("details.filter-panel")
    if panel.get_attribute("open") is None:
        page.locator("details.filter-panel > summary").click()
    expect(page.get_by_role("group", name="Venue")).to_be_visible()


def facet_count(page, legend: str, label: str) -> str:
    option = page.get_by_role("group", name=legend).locator("label", has_text=label)
    return " ".join(option.locator(".facet__count").inner_text().split())


def bar(page, year: int):
    """The chart's bar for `year`: a link named by its year and count."""
    return page.locator(".year-chart").get_by_role("link", name=re.compile(rf"^{year}: "))


def test_visitor_goes_from_home_to_a_filtered_publication_and_back(page, viewport_name):
    page.goto("/")
    expect(page.get_by_role("heading", level=1)).to_be_visible()

    if viewport_name == "phone":
        page.get_by_text("Menu", exact=True).click()  # the sections are behind the menu
    page.get_by_role("navigation", name="Main").get_by_role("link", name="People").click()
    expect(page).to_have_url(re.compile(r"/people/$"))
    expect(page.get_by_role("heading", name="Research Scientists")).to_be_visible()

    page.get_by_role("link", name="Hang Zhu", exact=True).first.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Hang Zhu")
    # The degree's period; the advisors section shows it again beside his advisor.
    expect(page.get_by_role("region", name="Education").get_by_text("2017 – 2022")).to_be_visible()

    page.get_by_role("link", name="All 12 publications, to filter and export").click()
    expect(page.locator(".result-count")).to_contain_text("12 publications")
    open_filters_if_folded(page)
    expect(bar(page, 2025)).to_have_accessible_name("2025: 3 publications")
    assert not has_horizontal_scroll(page)

    # The filters apply as soon as one changes.
    page.get_by_role("group", name="Venue").get_by_label(re.compile(r"^\s*NSDI\b")).check()
    expect(page.locator(".result-count")).to_contain_text("2 publications")
    expect(bar(page, 2025)).to_have_accessible_name("2025: 1 publication")
    expect(bar(page, 2022)).to_have_accessible_name("2022: 1 publication")
    open_filters_if_folded(page)
    # The venue facet ignores the venue filter.
    assert facet_count(page, "Venue", "SIGCOMM") == "3 publications"

    bar(page, 2022).click()
    expect(page.locator(".result-count")).to_contain_text("1 publication")
    expect(page.locator(".publication__title")).to_have_text(
        ["NetVRM: Virtual Register Memory for Programmable Networks"]
    )

    page.get_by_role("link", name="Remove filter Year: 2022").click()
    expect(page.locator(".result-count")).to_contain_text("2 publications")
    expect(page).not_to_have_url(re.compile(r"year"))

    page.get_by_role("link", name=re.compile(r"^Minder")).click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Minder")
    expect(
        page.locator(".facts").get_by_text(
            "Symposium on Networked Systems Design and Implementation"
        )
    ).to_be_visible()

    page.go_back()
    expect(page.locator(".result-count")).to_contain_text("2 publications")
    expect(page).to_have_url(re.compile(r"venue=NSDI"))
