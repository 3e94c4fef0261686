"""Every public page type, at phone and desktop sizes, in light and dark: accessible, fitting
the screen, with no broken image. Screenshots of each are written to SCREENSHOTS."""

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.browser.conftest import SCREENSHOTS, broken_images, has_horizontal_scroll

PAGES = {
    "home": "/",
    "people": "/people/",
    "profile": "/people/hang-zhu/",
    "publications": "/publications/",
    "publications-filtered": "/publications/?venue=NSDI&year=2024",
    "publication": "/publications/causalmesh/",
    "news": "/news/",
    "news-item": "/news/jet-long-accepted-to-neurips-2026/",
    "search": "/search/?q=zhang",
    "not-found": "/no-such-page/",
}
BLOCKING_IMPACTS = {"serious", "critical"}

axe = Axe()


def blocking_violations(page) -> list[str]:
    results = axe.run(page)
    return [
        f"{violation['id']} ({violation['impact']}): "
        + "; ".join(node["target"][0] for node in violation["nodes"][:5])
        for violation in results.response["violations"]
        if violation["impact"] in BLOCKING_IMPACTS
    ]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("name", list(PAGES))
def test_page_is_accessible_fits_the_screen_and_has_no_broken_image(
    page, viewport_name, name, scheme
):
    page.emulate_media(color_scheme=scheme)
    response = page.goto(PAGES[name])
    assert response.status == (404 if name == "not-found" else 200)
    page.wait_for_load_state("load")

    assert blocking_violations(page) == []
    assert not has_horizontal_scroll(page)
    assert broken_images(page) == []
    if scheme == "light":
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=SCREENSHOTS / f"{name}-{viewport_name}.png", full_page=True)
