"""Issue 26, the lists' half: paper entries, search rows, news, groups and areas, the focus
ring, the chart and print, measured in the browser at 390 and 1440 px, light and dark.

One paper of forty authors is added for the module (a member at position 30, two equal
contributors first) and removed after its last test."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import VIEWPORTS, shell

SCHEMES = ["light", "dark"]
COMBINATIONS = [(viewport, scheme) for viewport in VIEWPORTS for scheme in SCHEMES]
BIG_PAPER = "/publications/forty-authors/"
ADD_BIG_PAPER = """
from people.models import Person
from publications.models import Authorship, Publication, Venue
member = Person.objects.get(slug="hang-zhu")
paper = Publication.objects.create(
    title="Forty authors train one model", slug="forty-authors", year=2026,
    venue=Venue.objects.get(short_name="NSDI"), abstract="Many hands.",
)
for position in range(1, 41):
    Authorship.objects.create(
        publication=paper, position=position, equal_contribution=position in (1, 2),
        name=member.name if position == 30 else f"Outside Author{position}",
        person=member if position == 30 else None,
    )
"""
REMOVE_BIG_PAPER = """
from publications.models import Publication
Publication.objects.filter(slug="forty-authors").delete()
"""


@pytest.fixture(scope="module")
def site(site_url, server_environment):
    shell(server_environment, ADD_BIG_PAPER)
    yield site_url
    shell(server_environment, REMOVE_BIG_PAPER)


@pytest.fixture(scope="module", params=COMBINATIONS, ids=["-".join(c) for c in COMBINATIONS])
def page(request, browser, site):
    viewport, scheme = request.param
    context = browser.new_context(viewport=VIEWPORTS[viewport], base_url=site, color_scheme=scheme)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


PLACE = "element => { const box = element.getBoundingClientRect(); return [box.left + scrollX, box.top + scrollY, box.bottom + scrollY]; }"


def place(locator) -> list[float]:
    """Where an element is on the page (not in the window, which a click may scroll)."""
    return locator.evaluate(PLACE)


def big_entry(page):
    page.goto("/publications/?year_min=2026&year_max=2026")
    return page.locator(".publication", has=page.locator('a[href="/publications/forty-authors/"]'))


def test_a_forty_author_entry_names_ten_then_the_member_at_thirty_and_opens_in_place(page):
    entry = big_entry(page)
    authors = entry.locator(".publication__authors")
    shown = authors.inner_text()
    assert "Outside Author10" in shown and "Outside Author11" not in shown
    assert "Hang Zhu" in shown  # the member at position 30 is kept
    expect(authors.get_by_role("link", name="Hang Zhu")).to_be_visible()
    assert shown.count("*") == 2  # both equal contributors
    more = authors.locator("summary")
    assert " ".join(more.inner_text().split()) == "+29 more authors"
    top = place(authors)[1]
    more.click()
    whole = authors.inner_text()
    assert "Outside Author11" in whole and "Outside Author40" in whole
    assert whole.index("Outside Author29") < whole.index("Hang Zhu") < whole.index("Author31")
    assert place(authors)[1] == top  # the line opens where it was


def test_opening_abstract_or_cite_leaves_every_button_of_the_action_row_in_place(page):
    entry = big_entry(page)
    buttons = entry.locator(".publication__actions > .action, .publication__more > .action")
    before = [place(buttons.nth(index)) for index in range(buttons.count())]
    assert len(before) >= 2
    for name in ("Abstract", "Cite"):
        entry.locator("summary", has_text=name).click()
        assert [place(buttons.nth(index)) for index in range(len(before))] == before
    panels = entry.locator(".publication__panel")
    row_bottom = max(bottom for _, _, bottom in before)
    for index in range(panels.count()):
        assert place(panels.nth(index))[1] >= row_bottom  # below the row


def test_the_bibtex_of_a_long_entry_wraps_inside_its_panel(page):
    entry = big_entry(page)
    entry.locator("summary", has_text="Cite").click()
    bibtex = entry.locator(".cite__bibtex")
    expect(bibtex).to_contain_text("Outside Author40")
    assert bibtex.evaluate("pre => pre.scrollWidth <= pre.clientWidth")


def test_under_a_year_heading_no_entry_repeats_the_year(page):
    page.goto("/publications/")
    assert page.locator(".year-group .publication__year:visible").count() == 0
    page.goto("/")  # no year headings: each entry says its year
    assert page.locator(".publication__year:visible").count() > 0


def test_venue_badges_take_the_colour_of_their_venues_kind_and_name_the_venue_in_full(page):
    page.goto("/publications/")
    colours = {}
    for kind in ("conference", "preprint-server"):
        badge = page.locator(f".venue-badge--{kind}").first
        colours[kind] = badge.evaluate("badge => getComputedStyle(badge).backgroundColor")
        assert badge.get_attribute("title")
    assert colours["conference"] != colours["preprint-server"]
