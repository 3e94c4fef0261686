"""A talk's page as a visitor sees it: its closing link stands a paragraph's space below the
talk's description (it sat right under it, as the project page's did)."""

import pytest

from tests.browser.conftest import HEIGHT, gap_above_closing_link


@pytest.mark.parametrize("width", [390, 1440])
def test_the_all_talks_link_stands_a_paragraphs_space_below_the_description(tab, lab_events, width):
    tab.set_viewport_size({"width": width, "height": HEIGHT})
    tab.goto(lab_events)
    gap, rem = gap_above_closing_link(tab, "All talks and events")
    assert gap >= rem - 0.5


@pytest.mark.parametrize("width", [390, 1440])
def test_the_description_stands_a_paragraphs_space_below_the_slides_and_video(
    tab, lab_events, width
):
    """As the project's and output's pages set their text a paragraph below what precedes it
    (it stood 0 px under the Slides and Video buttons)."""
    tab.set_viewport_size({"width": width, "height": HEIGHT})
    tab.goto(lab_events)
    gap = tab.get_by_role("link", name="Slides").evaluate(
        """(link) => {
            const buttons = link.closest("p").getBoundingClientRect();
            const text = document.querySelector("article .prose").getBoundingClientRect();
            return text.top - buttons.bottom;
        }"""
    )
    rem = tab.evaluate("parseFloat(getComputedStyle(document.documentElement).fontSize)")
    assert gap >= rem - 0.5
