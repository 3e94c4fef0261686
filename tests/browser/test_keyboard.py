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
        inFilters: !!element.closest("form.filters"),
    };
}"""
FILTER_NAMES = {"q", "year_min", "year_max", "venue", "author", "type", "award"}


def tab_until(page, wanted, *, limit: int = 150) -> dict:
    """Press Tab until the focused element is `wanted`; opens the folded panel on a phone.
    Every filter control passed on the way must show a focus ring."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUSED)
        if focused["tag"] == "SUMMARY" and not focused["openPanel"]:
            page.keyboard.press("Enter")  # a phone starts with the filters folded
            continue
        if not focused["inFilters"]:
            continue  # the header's site search is a "q" too
        if focused["name"] in FILTER_NAMES:
            assert focused["ring"], f"no visible focus ring on {focused}"
        if wanted(focused):
            return focused
    raise AssertionError("Tab never reached the control")


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

    def every_control(focused) -> bool:
        reached.add(focused["name"])
        return reached >= FILTER_NAMES

    tab_until(page, every_control)

    # Words apply on Enter, an option on Space; focus comes back to the control each time.
    page.goto("/publications/")
    tab_until(page, lambda focused: focused["name"] == "q")
    page.keyboard.type("serverless")
    page.keyboard.press("Enter")
    expect(page).to_have_url(re.compile(r"\?q=serverless$"))
    expect(page.locator("form.filters input[name=q]")).to_be_focused()
    tab_until(page, lambda focused: focused["name"] == "venue" and focused["value"] == "OSDI")
    page.keyboard.press("Space")
    expect(page).to_have_url(re.compile(r"venue=OSDI"))
    expect(page.locator("input[value=OSDI]")).to_be_focused()
    focused = page.evaluate(FOCUSED)
    assert (focused["value"], focused["checked"], focused["ring"]) == ("OSDI", True, True)
    expect(page.locator(".result-count")).to_contain_text("1 publication matches")
    expect(page.locator(".publication__title")).to_have_text(
        ["Fault-tolerant and Transactional Stateful Serverless Workflows"]
    )
    expect(page.get_by_role("link", name="Remove filter Words: serverless")).to_be_visible()
