"""An editor adds a paper with five authors, moves the fifth to second place by dragging, or
with the keyboard alone, saves, and finds that order on the paper's public page."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import signed_in_page

NAMES = ["Ada First", "Bea Second", "Cy Third", "Di Fourth", "Ed Fifth"]
REORDERED = ["Ada First", "Ed Fifth", "Bea Second", "Cy Third", "Di Fourth"]


@pytest.fixture(scope="module")
def editor_page(browser, site_url):
    """One signed-in editor for the module; every test opens its own add page."""
    page = signed_in_page(browser, site_url)
    csp_errors = []
    page.on(
        "console",
        lambda message: (
            csp_errors.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    page.csp_errors = csp_errors
    yield page
    page.context.close()


def add_paper_with_five_authors(page, title: str) -> None:
    page.goto("/admin/publications/publication/add/")
    page.get_by_label("Title:", exact=True).fill(title)
    page.get_by_label("Year").fill("2026")
    for index, name in enumerate(NAMES):
        if index:
            page.locator("#authorships-group .add-row a").click()
        page.locator(f"input[name='authorships-{index}-name']").fill(name)


def places(page) -> list[tuple[str, str]]:
    """(name, place) of each author row, in the order the page shows them."""
    rows = page.eval_on_selector_all(
        "#authorships-group tr.form-row:not(.empty-form)",
        """rows => rows.map(row => [
            row.querySelector("input[name$='-name']").value,
            row.querySelector("input[name$='-position']").value,
        ])""",
    )
    return [tuple(row) for row in rows]


def save_and_read_public_authors(page, slug: str) -> str:
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator(".messagelist")).to_contain_text("was added successfully")
    page.goto(f"/publications/{slug}/")
    return page.locator(".publication__authors").first.inner_text()


def test_dragging_the_fifth_author_to_second_place(editor_page):
    page = editor_page
    add_paper_with_five_authors(page, "Dragged Authors")
    fifth = page.locator("#authorships-4 .ordered-rows__handle")
    second = page.locator("#authorships-1 .ordered-rows__handle")
    start, end = fifth.bounding_box(), second.bounding_box()
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    page.mouse.move(end["x"] + end["width"] / 2, end["y"] + 2, steps=12)
    page.mouse.move(end["x"] + end["width"] / 2, end["y"] + 1, steps=3)
    page.mouse.up()
    assert places(page) == [(name, str(place)) for place, name in enumerate(REORDERED, start=1)]

    authors = save_and_read_public_authors(page, "dragged-authors")
    assert re.sub(r"\s+", " ", authors) == ", ".join(REORDERED)
    assert page.csp_errors == []


def test_moving_the_fifth_author_to_second_place_with_the_keyboard(editor_page):
    page = editor_page
    add_paper_with_five_authors(page, "Keyboard Authors")
    page.locator("#authorships-4 .ordered-rows__handle").focus()
    for _ in range(3):
        page.keyboard.press("ArrowUp")
    focused = page.evaluate("document.activeElement.closest('tr').id")
    assert focused == "authorships-4"  # the moved row keeps the focus
    expect(page.locator(".ordered-rows__status").first).to_have_text("Moved to place 2.")
    assert places(page) == [(name, str(place)) for place, name in enumerate(REORDERED, start=1)]

    authors = save_and_read_public_authors(page, "keyboard-authors")
    assert re.sub(r"\s+", " ", authors) == ", ".join(REORDERED)
