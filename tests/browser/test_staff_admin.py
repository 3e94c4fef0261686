"""A staff member adds a publication through the admin and finds it on the public site."""

import re

from playwright.sync_api import expect

from tests.browser.conftest import signed_in_page

TITLE = "Scheduling Posters in a Browser-Made Test"


def choose_in_autocomplete(page, container, search: str, option: str) -> None:
    """Pick an option of a Django admin autocomplete (select2) field by typing."""
    container.locator(".select2-selection").click()
    page.locator(".select2-container--open .select2-search__field").fill(search)
    page.locator(".select2-results__option", has_text=option).click()


def test_staff_adds_a_publication_with_a_member_author_and_finds_it_by_venue(browser, site_url):
    page = signed_in_page(browser, site_url)
    context = page.context
    expect(page.get_by_role("heading", name="What to edit")).to_be_visible()

    page.goto("/admin/publications/publication/add/")
    page.get_by_label("Title:", exact=True).press_sequentially(TITLE)
    expect(page.get_by_label("Slug")).to_have_value("scheduling-posters-in-a-browser-made-test")
    choose_in_autocomplete(page, page.locator(".field-venue"), "Hot", "HotCloud")
    page.get_by_label("Year").fill("2026")

    first = page.locator("#authorships-0")
    first.locator("input[name='authorships-0-position']").fill("1")
    first.locator("input[name='authorships-0-name']").fill("Ada Outsider")
    page.locator("#authorships-group .add-row a").click()
    second = page.locator("#authorships-1")
    second.locator("input[name='authorships-1-position']").fill("2")
    second.locator("input[name='authorships-1-name']").fill("Zerui Wang")
    # The member column; an author row also offers an external person (the department).
    choose_in_autocomplete(page, second.locator(".field-researcher"), "Zerui", "Zerui Wang")

    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator(".messagelist")).to_contain_text("was added successfully")

    page.goto("/publications/?venue=hotcloud")
    expect(page.locator(".result-count")).to_contain_text("2 publications")
    entry = page.locator(".publication", has_text=TITLE)
    expect(entry.locator(".publication__authors")).to_have_text(
        re.compile(r"Ada Outsider,\s*Zerui Wang")
    )
    expect(entry.get_by_role("link", name="Zerui Wang")).to_have_attribute(
        "href", "/people/zerui-wang/"
    )
    context.close()
