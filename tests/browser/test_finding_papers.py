"""The public site as issue 10 asks for it, at 390 and 1440 px, in light and dark: every venue
in reach, ticked options in view, filters that apply at once (and through the button without
JavaScript), Abstract and Cite in place, chart bars that lead to their year, a search that
finds people by first name only, a printed profile with its CV, and no CSP refusal anywhere.

One browser context per size and scheme serves every test of the module."""

import re
from dataclasses import dataclass, field

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import VIEWPORTS, new_tab, shell

SCHEMES = ["light", "dark"]
COMBINATIONS = [(viewport, scheme) for viewport in VIEWPORTS for scheme in SCHEMES]
ABSTRACT = "CausalMesh keeps causal consistency for serverless workflows that move."
GIVE_CAUSALMESH_AN_ABSTRACT = f"""
from publications.models import Publication
Publication.objects.filter(slug="causalmesh").update(abstract={ABSTRACT!r})
"""


@pytest.fixture(scope="module")
def site(site_url, server_environment):
    """The seeded site, with one abstract: the profiles give none."""
    shell(server_environment, GIVE_CAUSALMESH_AN_ABSTRACT)
    return site_url


@dataclass
class Visit:
    page: object
    viewport: str
    scheme: str
    refused: list[str] = field(default_factory=list)

    @property
    def phone(self) -> bool:
        return self.viewport == "phone"

    def go(self, path: str):
        self.page.goto(path)
        self.page.wait_for_load_state("load")

    def open_filters(self):
        """On a phone the filter panel starts folded under its summary."""
        panel = self.page.locator("details.filter-panel")
        if panel.get_attribute("open") is None:
            self.page.locator("details.filter-panel > summary").click()


@pytest.fixture(scope="module", params=COMBINATIONS, ids=["-".join(c) for c in COMBINATIONS])
def visit(request, browser, site):
    viewport, scheme = request.param
    page = new_tab(browser, site, VIEWPORTS[viewport], color_scheme=scheme)
    visit = Visit(page, viewport, scheme)
    page.on(
        "console",
        lambda message: (
            visit.refused.append(message.text)
            if "Content Security Policy" in message.text
            else None
        ),
    )
    yield visit
    page.context.close()


@pytest.fixture(scope="module")
def no_script(browser, site):
    page = new_tab(browser, site, VIEWPORTS["desktop"], java_script_enabled=False)
    yield page
    page.context.close()


def result_count(page) -> str:
    return page.locator(".result-count").inner_text()


def test_every_venue_is_reachable_without_an_inner_scroll(visit):
    visit.go("/publications/")
    visit.open_filters()
    venues = visit.page.locator("#facet-venue")
    scrolling = venues.evaluate(
        """facet => [...facet.querySelectorAll("*")].filter(element => {
            const overflow = getComputedStyle(element).overflowY;
            return (overflow === "auto" || overflow === "scroll")
                && element.scrollHeight > element.clientHeight;
        }).length"""
    )
    assert scrolling == 0
    show_all = venues.locator("summary", has_text=re.compile(r"Show all \d+"))
    total = int(re.search(r"\d+", show_all.inner_text()).group())
    show_all.click()
    options = venues.locator("input[name=venue]")
    assert options.count() == total == 15
    for index in range(total):
        option = options.nth(index)
        option.scroll_into_view_if_needed()
        expect(option).to_be_in_viewport()
    # Most papers first: the lab's main venues lead.
    first = venues.locator(".facet__label").first.inner_text()
    assert first == "arXiv"


def test_a_ticked_option_is_in_view_without_show_all(visit):
    visit.go("/publications/?venue=HotCloud&venue=ECCV")
    visit.open_filters()
    for name in ["HotCloud", "ECCV"]:
        checkbox = visit.page.locator(f"#facet-venue input[value='{name}']")
        expect(checkbox).to_be_checked()
        expect(checkbox).to_be_visible()  # not folded away under "Show all"
    expect(visit.page.get_by_role("link", name="Remove filter Venue: HotCloud")).to_be_visible()


def test_a_change_applies_at_once_with_javascript(visit):
    visit.go("/publications/")
    visit.open_filters()
    expect(visit.page.get_by_role("button", name="Apply filters")).to_be_hidden()
    visit.page.locator("#facet-venue input[value='NSDI']").check()
    expect(visit.page).to_have_url(re.compile(r"\?venue=NSDI$"))
    assert "5 publications match" in result_count(visit.page)
    # Focus comes back to the option just changed, so the keyboard carries on from there.
    assert visit.page.evaluate("document.activeElement.value") == "NSDI"
    visit.page.locator("select[name=year_min]").select_option("2024")
    expect(visit.page).to_have_url(re.compile(r"\?year_min=2024&venue=NSDI$"))
    assert "4 publications match" in result_count(visit.page)
    assert visit.refused == []


def test_without_javascript_the_button_beside_the_options_applies_them(no_script):
    page = no_script
    page.goto("/publications/")
    button = page.get_by_role("button", name="Apply filters")
    expect(button).to_be_visible()
    page.locator("#facet-venue input[value='NSDI']").check()
    expect(page).to_have_url(re.compile(r"/publications/$"))  # nothing happens by itself
    button.scroll_into_view_if_needed()
    expect(button).to_be_in_viewport()  # sticky at the panel's foot, next to the options
    button.click()
    expect(page).to_have_url(re.compile(r"venue=NSDI"))
    assert "5 publications match" in result_count(page)


def test_abstract_and_cite_open_in_place(visit):
    visit.go("/publications/?award=1")
    entry = visit.page.locator(".publication", has_text="CausalMesh")
    abstract = entry.get_by_text(ABSTRACT)
    expect(abstract).to_be_hidden()
    entry.locator("summary", has_text="Abstract").click()
    expect(abstract).to_be_visible()
    bibtex = entry.locator(".cite__bibtex")
    expect(bibtex).to_be_hidden()
    entry.locator("summary", has_text="Cite").click()
    expect(bibtex).to_be_visible()
    expect(bibtex).to_contain_text("@inproceedings{zhang2025causalmesh")
    expect(entry.get_by_role("button", name="Copy BibTeX")).to_be_visible()
    expect(visit.page).to_have_url(re.compile(r"/publications/\?award=1$"))  # in place
    for action in entry.locator(".action").all():
        assert action.bounding_box()["height"] >= 32


def test_each_bar_of_the_chart_leads_to_its_year(visit):
    visit.go("/publications/")
    bars = visit.page.locator(".year-chart a.chart__link")
    labels = [bars.nth(index).get_attribute("aria-label") for index in range(bars.count())]
    assert len(labels) == 9  # 2017, 2019 … 2026: the years with papers
    for label in labels:
        year, count = re.match(r"(\d{4}): (\d+) publications?", label).groups()
        visit.go("/publications/")
        visit.page.get_by_label(label, exact=True).click()
        expect(visit.page).to_have_url(re.compile(rf"year_min={year}&year_max={year}$"))
        assert result_count(visit.page).startswith(f"{count} publication")
        headings = visit.page.locator(".year-group__heading").all_inner_texts()
        assert headings == [year]


def test_a_profiles_chart_leads_to_the_persons_papers_of_that_year(visit):
    visit.go("/people/zerui-wang/")
    visit.page.get_by_label("2024: 4 publications", exact=True).click()
    expect(visit.page).to_have_url(re.compile(r"author=zerui-wang&year_min=2024&year_max=2024$"))
    assert result_count(visit.page).startswith("4 publications")


def test_search_finds_a_person_by_first_name_and_not_inside_another_name(visit):
    visit.go("/")
    box = visit.page.get_by_role("searchbox", name="Search people, publications and news")
    box.fill("Hang")
    box.press("Enter")
    expect(visit.page).to_have_url(re.compile(r"/search/\?q=Hang$"))
    people = visit.page.locator("section", has=visit.page.locator("#results-people"))
    expect(people.locator(".search-row__title")).to_have_text(["Hang Zhu"])
    publications = visit.page.locator("section", has=visit.page.locator("#results-publications"))
    expect(publications.locator(".search-row__title").first).to_be_visible()
    # What is marked starts a word with "Hang": never the end of "Zhang". (The words' matching
    # itself is tests/pages/test_site_search.py's.)
    for marked in visit.page.locator(".search-row mark").all():
        assert marked.inner_text().lower() == "hang"
        before = marked.evaluate("mark => mark.previousSibling?.textContent.slice(-1) || ' '")
        assert not before.isalpha(), before


def test_a_printed_profile_holds_its_cv_in_light_colours_with_the_labs_name_and_address(visit):
    visit.go("/people/haoran-zhang/")
    visit.page.emulate_media(media="print", color_scheme=visit.scheme)
    try:
        for heading in ["Education", "Experience", "Teaching", "Service"]:
            expect(visit.page.get_by_role("heading", name=heading, exact=True)).to_be_visible()
        education = visit.page.locator("section", has=visit.page.locator("#education")).locator(
            "li"
        )
        expect(education).to_have_count(3)
        for entry in education.all():
            expect(entry).to_be_visible()
        header = visit.page.locator(".print-header")
        expect(header).to_be_visible()
        expect(header).to_contain_text("Lab Directory")
        expect(header).to_contain_text("/people/haoran-zhang/")
        colours = visit.page.evaluate(
            """() => [document.body, document.querySelector(".publication__title a")]
                .map(element => getComputedStyle(element).color)"""
        )
        assert colours == ["rgb(0, 0, 0)", "rgb(0, 0, 0)"]
        assert visit.page.evaluate("getComputedStyle(document.body).backgroundColor") in {
            "rgb(255, 255, 255)",
            "rgba(0, 0, 0, 0)",
        }
        visit.go("/publications/")
        expect(visit.page.locator(".filter-panel")).to_be_hidden()
    finally:
        visit.page.emulate_media(media="screen", color_scheme=visit.scheme)


def test_key_facts_come_first_on_a_phone_and_beside_the_papers_on_a_wide_screen(visit):
    visit.go("/people/zerui-wang/")
    education = visit.page.get_by_role("heading", name="Education", exact=True).bounding_box()
    papers = visit.page.locator("#publications").bounding_box()
    if visit.phone:
        assert education["y"] < papers["y"] < 2000
    else:
        assert education["x"] > papers["x"] + papers["width"] / 2
        assert education["y"] < 900


def test_people_cards_lead_with_a_round_photo_or_an_avatar_of_their_own_tint(visit):
    visit.go("/people/")
    fills = visit.page.eval_on_selector_all(
        ".person-card svg.avatar rect", "rects => rects.map(rect => rect.getAttribute('fill'))"
    )
    assert len(fills) == 4 and len(set(fills)) == 4
    first = visit.page.locator(".person-card").first
    avatar, name = first.locator(".avatar").bounding_box(), first.locator("h3").bounding_box()
    assert avatar["y"] < name["y"] and 96 <= avatar["width"] <= 128


def test_news_without_a_body_is_one_line_not_a_link_to_an_empty_page(visit):
    visit.go("/news/")
    entry = visit.page.locator(".news-entry", has_text="Jet-Long has been accepted")
    expect(
        entry.get_by_role("link", name="Jet-Long has been accepted to NeurIPS 2026.")
    ).to_have_count(0)
    expect(entry.get_by_role("link", name=re.compile(r"^Jet-Long: Efficient"))).to_be_visible()


def test_the_footer_never_touches_the_content(visit):
    for path in ["/", "/people/", "/publications/?venue=NSDI", "/news/", "/search/?q=zhu"]:
        visit.go(path)
        gap = visit.page.evaluate(
            """() => {
                const main = document.querySelector("main");
                const last = [...main.querySelectorAll("*")]
                    .filter(element => element.checkVisibility())
                    .reduce((bottom, element) => Math.max(bottom, element.getBoundingClientRect().bottom), 0);
                return document.querySelector(".site-footer").getBoundingClientRect().top - last;
            }"""
        )
        assert gap >= 24, path
    assert visit.refused == []
