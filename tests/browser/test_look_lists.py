"""Issue 26, the lists' half: paper entries, search rows, news, groups and areas, the focus
ring, the chart and print, measured in the browser at 390 and 1440 px, light and dark.

One paper of forty authors is added for the module (a member at position 30, two equal
contributors first), filed under a research area of its own; both are removed after the
module's last test."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import VIEWPORTS, new_tab, shell

SCHEMES = ["light", "dark"]
COMBINATIONS = [(viewport, scheme) for viewport in VIEWPORTS for scheme in SCHEMES]
BIG_PAPER = "/publications/forty-authors/"
ADD_BIG_PAPER = """
from people.models import Person, ResearchArea
from publications.models import Authorship, Publication, Venue
member = Person.objects.get(slug="hang-zhu")
area = ResearchArea.objects.create(
    name="Distributed training", slug="distributed-training",
    description="Training one model on **many** machines at once.",
)
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
paper.areas.add(area)
member.research_areas.add(area)
from news.models import NewsItem
story = NewsItem.objects.create(
    title="Forty authors, one model", slug="forty-authors-news", date="2026-08",
    body="We trained **one** model together.\\n\\n> Forty hands are better than two.",
)
story.publications.add(paper)
from outputs.models import Output, OutputCreator
traces = Output.objects.create(
    kind="dataset", title="Zhang-style traces of forty authors training one model on many "
    "machines at once, every step recorded", slug="forty-authors-traces", released="2026-08",
)
OutputCreator.objects.create(output=traces, position=1, researcher=member)
"""
REMOVE_BIG_PAPER = """
from outputs.models import Output
Output.objects.filter(slug="forty-authors-traces").delete()
from people.models import ResearchArea
from publications.models import Publication
Publication.objects.filter(slug="forty-authors").delete()
from news.models import NewsItem
NewsItem.objects.filter(slug="forty-authors-news").delete()
ResearchArea.objects.filter(slug="distributed-training").delete()
"""


@pytest.fixture(scope="module")
def site(site_url, server_environment):
    shell(server_environment, ADD_BIG_PAPER)
    yield site_url
    shell(server_environment, REMOVE_BIG_PAPER)


@pytest.fixture(scope="module", params=COMBINATIONS, ids=["-".join(c) for c in COMBINATIONS])
def page(request, browser, site):
    viewport, scheme = request.param
    page = new_tab(browser, site, VIEWPORTS[viewport], color_scheme=scheme)
    yield page
    page.context.close()


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
    # Within the entry and the window, not widening them.
    assert (
        place(bibtex)[0] + bibtex.bounding_box()["width"]
        <= place(entry)[0] + entry.bounding_box()["width"] + 1
    )
    assert not page.evaluate("document.documentElement.scrollWidth > innerWidth")


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


def test_search_results_are_one_line_rows_with_the_words_found_marked_under_one_box(page):
    page.goto("/search/?q=zhang")
    assert page.locator('input[type="search"]').count() == 1
    rows = page.locator(".search-row")
    assert rows.count() >= 5
    line = rows.first.evaluate("row => parseFloat(getComputedStyle(row).lineHeight)")
    for index in range(rows.count()):
        box = rows.nth(index).locator(".search-row__title").bounding_box()
        assert box["height"] < 1.5 * line  # one line, however long the title
    expect(page.locator(".search-row mark").first).to_have_text("Zhang")
    # People, papers, and datasets and software (the module's traces); no empty kinds.
    assert page.locator(".search-group").count() == 3
    assert page.locator("#results-outputs ~ .search-rows .search-row").count() == 1


def test_news_titles_look_alike_whether_they_lead_to_a_page_or_not(page):
    page.goto("/news/")
    expect(page.locator(".news-entry__summary").first).to_have_text(
        "We trained one model together. Forty hands are better than two."
    )
    colours = page.locator(".news-entry__title").evaluate_all(
        "titles => titles.map(title => getComputedStyle(title.querySelector('a') || title).color)"
    )
    assert len(colours) > 2 and len(set(colours)) == 1


def luminance(colour: str) -> float:
    red, green, blue = (int(part) / 255 for part in re.findall(r"[\d.]+", colour)[:3])

    def linear(channel):
        return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4

    return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)


def contrast(first: str, second: str) -> float:
    lighter, darker = sorted((luminance(first), luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


# The outer ring's colour, and the background it is drawn on: the first ancestor's with one.
FOCUS_RING = """() => {
  const element = document.activeElement;
  let behind = element.parentElement;
  while (behind && ['rgba(0, 0, 0, 0)', 'transparent'].includes(getComputedStyle(behind).backgroundColor))
    behind = behind.parentElement;
  const style = getComputedStyle(element);
  return {tag: element.outerHTML.slice(0, 60), ring: style.outlineColor, width: style.outlineWidth,
          on: getComputedStyle(behind || document.documentElement).backgroundColor};
}"""


@pytest.mark.parametrize("path", ["/publications/?author=hang-zhu", "/search/?q=zhang", "/news/"])
def test_the_focus_ring_stands_out_three_to_one_on_every_surface_it_is_drawn_on(page, path):
    page.goto(path)
    surfaces = set()
    for _ in range(45):
        page.keyboard.press("Tab")
        ring = page.evaluate(FOCUS_RING)
        if ring["tag"].startswith("<body"):
            break
        assert ring["width"] == "3px", ring
        assert contrast(ring["ring"], ring["on"]) >= 3, ring
        surfaces.add(ring["on"])
    assert len(surfaces) >= 2  # the page, and a panel or chip on it


def test_the_chart_labels_its_first_and_last_years(page):
    page.goto("/publications/")
    labels = page.locator(".chart__year").all_text_contents()
    first, last = re.search(
        r"(\d{4})–(\d{4})", page.locator(".year-chart figcaption").inner_text()
    ).groups()
    assert labels[0] == first and labels[-1] == last


def test_the_filters_show_only_facets_that_have_options(page):
    page.goto("/publications/?venue=arXiv")
    assert page.get_by_text("None with these filters").count() == 0
    for facet in page.locator(".filters fieldset.facet").all():
        assert facet.locator("input, select").count() > 0
    assert page.locator("#facet-award").count() == 0  # no arXiv paper has an award


def test_a_printed_list_says_its_filters_and_shows_no_faces(page):
    page.emulate_media(media="print")
    page.goto("/publications/?author=hang-zhu")
    chips = page.locator(".chips")
    expect(chips).to_be_visible()
    expect(chips).to_contain_text("Lab member: Hang Zhu")
    expect(page.get_by_role("link", name="Clear all")).to_be_hidden()
    page.goto("/people/")
    assert page.locator(".avatar:visible").count() == 0
    page.emulate_media(media="screen")


# For each text node under the element, whether a line ends between two letters of one word.
BROKEN_WORD = """element => {
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  let node, broken = [];
  while ((node = walker.nextNode())) {
    let top = null;
    for (let index = 0; index < node.length; index++) {
      range.setStart(node, index); range.setEnd(node, index + 1);
      const rect = range.getClientRects()[0];
      if (!rect) continue;
      if (top !== null && rect.top > top + 2 && /\\w/.test(node.data[index]) && /\\w/.test(node.data[index - 1]))
        broken.push(node.data);
      top = rect.top;
    }
  }
  return broken;
}"""


def test_an_affiliation_with_an_at_sign_wraps_after_it_not_inside_a_word(page):
    page.goto("/people/")
    card = page.locator(".person-card", has_text="Hang Zhu")
    assert card.locator(".person-card__affiliation").evaluate(BROKEN_WORD) == []


@pytest.mark.parametrize(
    "path", ["/publications/?year_min=2026", "/search/?q=zhang", "/news/", "/", "/areas/"]
)
def test_the_pages_this_part_changed_have_no_accessibility_violation_at_all(page, path):
    """Every impact, not only the serious ones test_pages.py blocks on; with a long author
    line and a Cite panel open."""
    from axe_playwright_python.sync_playwright import Axe

    page.goto(path)
    for summary in page.locator(".authors__more > summary, .publication__more > summary").all()[:4]:
        summary.click()
    violations = Axe().run(page).response["violations"]
    assert [(violation["id"], violation["nodes"][0]["target"]) for violation in violations] == []
