"""The geometry of every repeated block, measured in the browser at phone and desktop widths:
a publication entry's title, a news entry's and an event entry's title, a person card and its name keep most of
their list's width, and a publication list prints on few pages.

Screenshots do not catch a layout that breaks: when an empty COinS span became the first item
of each publication entry's grid, every desktop list put its titles in a 104 px column (one word
per line) and the print view grew from 3 pages to 11, while the screenshots were taken and the
suite passed. These tests measure what a reader sees instead.
"""

import itertools
import re

import pytest

from tests.browser.conftest import GROUP, HEIGHT, WIDTHS

pytestmark = pytest.mark.usefixtures("research_group", "lab_events")

SMALLEST_SHARE = 0.6  # of its list's width, that a title or a name may take at least
SMALLEST_CARD = 140  # px: below it, a person's name wraps one word per line

# Every page type that lists publications, people cards or news entries, and the search's rows.
PAGES = {
    "home": "/",
    "publications": "/publications/",
    "profile": "/people/hang-zhu/",
    "search": "/search/?q=zhang",  # people and publications
    "search-news": "/search/?q=jet",  # news and a publication
    "group": GROUP,
    "paper": "/publications/causalmesh/",  # its "More by" list
    "people": "/people/",
    "news": "/news/",
    "events": "/events/",
}
# Each repeated block: the element that repeats, its text that must keep its width, and the
# pages where it appears.
BLOCKS = {
    "publication entry": (
        ".publication",
        ".publication__title",
        ("home", "publications", "profile", "group", "paper"),
    ),
    "news entry": (".news-entry", ".news-entry__title", ("home", "news", "group")),
    # A talk or an event, in the list beside its filters, and in a profile's side column.
    "event entry": (".news-entry", ".news-entry__title", ("events", "profile")),
    "person card": (".person-card", ".person-card__name", ("people", "group")),
    # The site search lists one line per result, of every kind.
    "search row": (".search-row", ".search-row__title", ("search", "search-news")),
}
# Pages printed on at most this many A4 pages: each page's count with the fixed layout, plus one.
# With COinS spans as grid items they printed on 27, 9, 8 and 16 pages.
PRINT_BUDGET = {"publications": 6, "profile": 4, "home": 4, "group": 5}

MEASURE = """([block, text]) => {
  const blocks = [...document.querySelectorAll(block)];
  const lists = blocks.map(each => each.parentElement);
  return blocks.map(element => {
    const list = element.parentElement.getBoundingClientRect();
    const box = element.getBoundingClientRect();
    const inner = element.querySelector(text);
    return {
        text: inner ? inner.textContent.trim().slice(0, 50) : "(none)",
        textWidth: inner ? inner.getBoundingClientRect().width : 0,
        blockWidth: box.width,
        blockTop: Math.round(box.top),
        list: lists.indexOf(element.parentElement),
        listWidth: list.width,
        shown: box.width > 0,
    };
  });
}"""


def blocks_on(tab, page_name: str, block_name: str) -> list[dict]:
    block, text, _ = BLOCKS[block_name]
    return [row for row in tab.evaluate(MEASURE, [block, text]) if row["shown"]]


def narrow_blocks(tab, page_name: str, block_name: str) -> list[str]:
    """What is wrong with each block of this kind on the page now shown, in words."""
    rows = blocks_on(tab, page_name, block_name)
    if not rows:
        return [f"{page_name}: no {block_name} shown"]
    problems = []
    for row in rows:
        share = row["textWidth"] / row["listWidth"]
        where = f"{page_name}: {block_name} “{row['text']}”"
        if block_name == "person card":
            if row["blockWidth"] < SMALLEST_CARD:
                problems.append(f"{where} is {row['blockWidth']:.0f} px wide")
            share = row["textWidth"] / row["blockWidth"]
        if share < SMALLEST_SHARE:
            problems.append(f"{where} takes {share:.0%} of its width ({row['textWidth']:.0f} px)")
    if block_name == "person card":
        for list_rows in itertools.groupby(rows, key=lambda row: row["list"]):
            cards = list(list_rows[1])
            first_row = [card for card in cards if card["blockTop"] == cards[0]["blockTop"]]
            if len(cards) > 1 and len(first_row) < 2:
                problems.append(f"{page_name}: one person card per row")
    return problems


def narrow_entries(tab, lists: dict[str, str], block: str, entry: str) -> list[str]:
    """What is wrong with each entry (`block`, titled by a .publication__title) on each page of
    `lists` at the tab's width, in words: none shown, or a title under SMALLEST_SHARE of its
    list's width. The outputs' and the projects' entries, measured as the blocks above."""
    problems = []
    for name, path in lists.items():
        assert tab.goto(path).status == 200, path
        shown = tab.evaluate(MEASURE, [block, ".publication__title"])
        rows = [row for row in shown if row["shown"]]
        if not rows:
            problems.append(f"{name}: no {entry} shown")
        for row in rows:
            share = row["textWidth"] / row["listWidth"]
            if share < SMALLEST_SHARE:
                problems.append(f"{name}: “{row['text']}” takes {share:.0%} of its list's width")
    return problems


@pytest.mark.parametrize("width", WIDTHS)
def test_every_repeated_block_keeps_most_of_its_list_width(tab, width):
    tab.set_viewport_size({"width": width, "height": HEIGHT})
    problems = []
    for page_name, path in PAGES.items():
        assert tab.goto(path).status == 200, path
        for block_name, (_, _, pages) in BLOCKS.items():
            if page_name in pages:
                problems += narrow_blocks(tab, page_name, block_name)
    assert problems == []


def printed_pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page\b(?!s)", pdf))


@pytest.mark.parametrize("page_name", list(PRINT_BUDGET))
def test_a_publication_list_prints_within_its_page_budget(tab, page_name):
    tab.set_viewport_size({"width": WIDTHS[-1], "height": HEIGHT})
    assert tab.goto(PAGES[page_name]).status == 200
    pages = printed_pages(tab.pdf(format="A4"))
    assert 0 < pages <= PRINT_BUDGET[page_name]
