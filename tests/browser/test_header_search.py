"""The header's search box on a phone: its placeholder is read whole, not cut ("Search t…"),
at the narrowest phones' widths as on a desktop."""

import pytest

from tests.browser.conftest import HEIGHT

# The width the placeholder's text takes in the input's own font, and the width the input
# leaves for text (inside its padding), in px.
PLACEHOLDER_AND_ROOM = """(input) => {
    const style = getComputedStyle(input, "::placeholder");
    const context = document.createElement("canvas").getContext("2d");
    context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const own = getComputedStyle(input);
    const room = input.clientWidth - parseFloat(own.paddingLeft) - parseFloat(own.paddingRight);
    return [context.measureText(input.placeholder).width, room];
}"""


@pytest.mark.parametrize("width", [320, 360, 390, 1440])
def test_the_search_placeholder_is_not_cut(tab, width):
    tab.set_viewport_size({"width": width, "height": HEIGHT})
    tab.goto("/")
    search = tab.locator("#site-search-q")
    assert search.get_attribute("placeholder")
    needed, room = search.evaluate(PLACEHOLDER_AND_ROOM)
    assert needed <= room, f"the placeholder needs {needed:.0f} px, the box leaves {room:.0f}"
