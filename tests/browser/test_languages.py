"""The language switcher, in a browser with JavaScript off: by keyboard from a filtered list to
the same list in Chinese and back (docs/decisions/languages.md)."""

import pytest
from playwright.sync_api import expect


@pytest.fixture
def no_script(browser, site_url):
    context = browser.new_context(
        viewport={"width": 1440, "height": 900}, base_url=site_url, java_script_enabled=False
    )
    page = context.new_page()
    yield page
    context.close()


def test_the_language_switcher_takes_a_keyboard_user_to_the_same_page_in_chinese_and_back(
    no_script,
):
    page = no_script
    assert page.goto("/publications/?year_min=2020").status == 200
    switcher = page.get_by_role("navigation", name="Language")
    chinese = switcher.get_by_role("link", name="简体中文")
    chinese.focus()
    expect(chinese).to_be_focused()
    page.keyboard.press("Enter")
    page.wait_for_url("**/zh-hans/publications/?year_min=2020")
    expect(page.locator("html")).to_have_attribute("lang", "zh-hans")
    expect(page.get_by_role("heading", level=1)).to_have_text("论文")
    # The filter stayed: the chosen year is still selected.
    expect(page.locator("select[name=year_min]")).to_have_value("2020")

    english = page.get_by_role("navigation", name="语言").get_by_role("link", name="English")
    english.focus()
    page.keyboard.press("Enter")
    page.wait_for_url("**/publications/?year_min=2020")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_role("heading", level=1)).to_have_text("Publications")
