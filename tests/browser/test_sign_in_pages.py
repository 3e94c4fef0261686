"""allauth's own pages in the browser: the sign-out confirmation and a cancelled sign-in have
the site's header, pass axe, fit a phone's screen and break no rule of the site's
Content-Security-Policy (allauth's own layout was a bare page without the site's header)."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import VIEWPORTS, has_horizontal_scroll, signed_in_page
from tests.browser.test_html_checker import fetch, nu_errors
from tests.browser.test_pages import blocking_violations


def policy_breaches(page) -> list[str]:
    """What Chromium refused under the Content-Security-Policy while the page loads."""
    refused: list[str] = []
    page.on(
        "console",
        lambda message: (
            refused.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    return refused


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_the_sign_out_confirmation_is_a_page_of_the_site_and_signs_out(browser, site_url, viewport):
    page = signed_in_page(browser, site_url, viewport=viewport)
    refused = policy_breaches(page)
    page.goto("/accounts/logout/")
    expect(page.locator("header.site-header")).to_be_visible()
    expect(page.get_by_role("heading", name="Sign out", exact=True)).to_be_visible()
    assert blocking_violations(page) == []
    assert not has_horizontal_scroll(page)
    page.get_by_role("button", name="Sign out").click()
    page.wait_for_load_state("load")
    assert page.goto("/admin/").url.startswith(f"{site_url}/admin/login/")
    assert refused == []
    page.context.close()


def test_a_cancelled_sign_in_is_a_page_of_the_site(page):
    refused = policy_breaches(page)
    answer = page.goto("/accounts/3rdparty/login/cancelled/")
    assert answer is not None and answer.status == 200
    expect(page.locator("header.site-header")).to_be_visible()
    expect(page.get_by_role("heading", name="Sign-in cancelled")).to_be_visible()
    assert blocking_violations(page) == []
    assert not has_horizontal_scroll(page)
    assert refused == []


@pytest.mark.needs("java", "vnu")
def test_allauths_pages_for_a_visitor_are_valid_html(site_url, tmp_path):
    files = []
    for name in ("login", "inactive", "3rdparty/login/cancelled", "3rdparty/login/error"):
        status, body = fetch(f"{site_url}/accounts/{name}/")
        assert status in (200, 401), name
        files.append(tmp_path / f"{name.replace('/', '-')}.html")
        files[-1].write_bytes(body)
    assert nu_errors(files) == []
