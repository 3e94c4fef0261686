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
