"""Every public page type, at phone and desktop sizes, in light and dark: accessible, fitting
the screen, with no broken image. Screenshots of each are written to SCREENSHOTS."""

import pytest
from axe_playwright_python.sync_playwright import Axe

from base.accessibility import AXE, AXE_BLOCKING_IMPACTS, SCHEMES, pages_checked_by
from tests.browser.conftest import broken_images, has_horizontal_scroll, screenshot

# The page types and checks the accessibility statement lists (/accessibility/).
PAGES = pages_checked_by(AXE)

axe = Axe()


def blocking_violations(page) -> list[str]:
    results = axe.run(page)
    return [
        f"{violation['id']} ({violation['impact']}): "
        + "; ".join(node["target"][0] for node in violation["nodes"][:5])
        for violation in results.response["violations"]
        if violation["impact"] in AXE_BLOCKING_IMPACTS
    ]


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("name", list(PAGES))
def test_page_is_accessible_fits_the_screen_and_has_no_broken_image(
    request, page, viewport_name, name, scheme
):
    if PAGES[name].needs_group:
        request.getfixturevalue("research_group")
    if PAGES[name].needs_events:
        request.getfixturevalue("lab_events")
    page.emulate_media(color_scheme=scheme)
    response = page.goto(PAGES[name].path)
    assert response.status == PAGES[name].status
    page.wait_for_load_state("load")

    assert blocking_violations(page) == []
    assert not has_horizontal_scroll(page)
    assert broken_images(page) == []
    if scheme == "light":
        screenshot(page, f"{name}-{viewport_name}")
