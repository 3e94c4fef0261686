"""The header on a phone: one row (the lab's name, the search box, a menu) no taller than 64 px
before any content, and a menu that opens without JavaScript and by keyboard."""

import pytest
from playwright.sync_api import expect

PAGES = ("/", "/people/", "/publications/", "/people/hang-zhu/", "/news/", "/search/?q=zhu")


@pytest.fixture
def phone(browser, site_url, request):
    javascript = getattr(request, "param", True)
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, base_url=site_url, java_script_enabled=javascript
    )
    page = context.new_page()
    yield page
    context.close()


def test_the_phone_header_is_one_row_no_taller_than_64_px(phone):
    for path in PAGES:
        assert phone.goto(path).status == 200
        header = phone.locator(".site-header").bounding_box()
        assert header["height"] <= 64, (path, header)
        name = phone.locator(".site-name").bounding_box()
        search = phone.locator("#site-search-q").bounding_box()
        menu = phone.locator(".site-menu__toggle").bounding_box()
        # Side by side in one row: the same band of the screen.
        for box in (search, menu):
            assert abs((box["y"] + box["height"] / 2) - (name["y"] + name["height"] / 2)) < 8


@pytest.mark.parametrize("phone", [True, False], indirect=True, ids=["script", "no-script"])
def test_the_phone_menu_opens_by_keyboard_and_leads_to_every_section(phone):
    phone.goto("/")
    navigation = phone.get_by_role("navigation", name="Main")
    expect(navigation).to_be_hidden()
    phone.locator(".site-menu__toggle").focus()
    phone.keyboard.press("Enter")
    expect(navigation).to_be_visible()
    phone.keyboard.press("Tab")
    expect(navigation.get_by_role("link", name="People")).to_be_focused()
    phone.keyboard.press("Enter")
    phone.wait_for_url("**/people/")


def test_on_a_wide_screen_the_sections_are_shown_without_a_menu(browser, site_url):
    context = browser.new_context(viewport={"width": 1440, "height": 900}, base_url=site_url)
    page = context.new_page()
    page.goto("/")
    expect(page.locator(".site-menu__toggle")).to_be_hidden()
    expect(
        page.get_by_role("navigation", name="Main").get_by_role("link", name="News")
    ).to_be_visible()
    assert page.locator(".site-header").bounding_box()["height"] <= 72
    context.close()


@pytest.mark.parametrize("width", [360, 390])
def test_on_a_phone_the_labs_name_reads_whole_on_two_lines(browser, site_url, width):
    context = browser.new_context(viewport={"width": width, "height": 800}, base_url=site_url)
    page = context.new_page()
    page.goto("/people/")
    name = page.locator(".site-name__text")
    cut = name.evaluate("e => e.scrollHeight > e.clientHeight || e.scrollWidth > e.clientWidth")
    assert not cut, name.inner_text()
    assert page.locator(".site-header").bounding_box()["height"] <= 64
    context.close()
