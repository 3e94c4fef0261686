"""Keyboard only: the skip link, then every filter control reached with Tab, used with Space
and Enter, each showing a visible focus ring."""

import re

from playwright.sync_api import expect

FOCUSED = """() => {
    const element = document.activeElement;
    const style = getComputedStyle(element);
    return {
        tag: element.tagName,
        id: element.id,
        name: element.getAttribute("name") || "",
        value: element.value || "",
        text: (element.innerText || "").trim(),
        checked: !!element.checked,
        ring: style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2,
        openPanel: !!element.closest("details")?.open,
    };
}"""
FILTER_NAMES = {"q", "author", "venue", "year", "year_min", "year_max", "type", "award"}


def test_skip_link_then_every_filter_control_by_keyboard(page):
    page.goto("/publications/")

    page.keyboard.press("Tab")
    skip = page.evaluate(FOCUSED)
    assert skip["text"] == "Skip to main content"
    assert skip["ring"]
    expect(page.get_by_role("link", name="Skip to main content")).to_be_in_viewport()
    page.keyboard.press("Enter")
    assert page.evaluate(FOCUSED)["id"] == "main-content"

    reached = set()
    for _ in range(150):
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUSED)
        if focused["tag"] == "SUMMARY" and not focused["openPanel"]:
            page.keyboard.press("Enter")  # a phone starts with the filters folded
            continue
        if focused["name"] in FILTER_NAMES:
            assert focused["ring"], f"no visible focus ring on {focused}"
            reached.add(focused["name"])
            if focused["name"] == "venue" and focused["value"] == "OSDI":
                page.keyboard.press("Space")
                assert page.evaluate(FOCUSED)["checked"]
            if focused["name"] == "q":
                page.keyboard.type("serverless")
        if focused["tag"] == "BUTTON" and focused["text"] == "Apply filters":
            assert focused["ring"]
            page.keyboard.press("Enter")
            break
    else:
        raise AssertionError("Tab never reached the Apply filters button")

    assert reached == FILTER_NAMES
    expect(page).to_have_url(re.compile(r"venue=OSDI"))
    expect(page.locator(".result-count")).to_contain_text("1 publication matches")
    expect(page.locator(".publication__title")).to_have_text(
        ["Fault-tolerant and Transactional Stateful Serverless Workflows"]
    )
    expect(page.get_by_role("link", name="Remove filter Words: serverless")).to_be_visible()
