"""Signing in with the institution through SAML in the browser: Chromium clicks "Sign in with
Example University" on the admin's sign-in page, is sent with an AuthnRequest to a real SAML
identity provider (pysaml2's, signing with xmlsec1: tests/signin/saml_idp.py) on its own
loopback port, signs in there, and the identity provider's page posts the signed answer back
to the portal, which signs the member in on their own profile."""

import urllib.request
from collections.abc import Iterator

import pytest

from tests.browser.conftest import runserver, shell
from tests.browser.test_institution_sign_in import (
    MAKE_MEMBER,
    REMOVE_MEMBER,
    admin_sign_in_page,
    back_signed_in_as_grace,
)
from tests.browser.test_sign_in_pages import policy_breaches
from tests.signin.conftest import (
    INSTITUTION,
    saml_provider,  # noqa: F401 (the identity provider, started once)
)
from tests.signin.provider.prepare import PASSWORD
from tests.signin.saml_idp import EDUPERSON, ENTITLEMENT


@pytest.fixture(scope="module")
def saml_site(site_url, server_environment, saml_provider) -> Iterator[str]:  # noqa: F811
    """The browser suite's site and database served a second time, with SAML configured from
    the environment as an operator would; the identity provider trusts it from its metadata."""
    metadata = f"{saml_provider.url}/metadata"
    environment = {
        **server_environment,
        "SAML_METADATA_URL": metadata,
        "SAML_IDP_ENTITY_ID": metadata,
        "SIGNIN_INSTITUTION_NAME": INSTITUTION,
        "SIGNIN_GROUPS_CLAIM": ENTITLEMENT,
        "SIGNIN_ORCID_CLAIM": f"{EDUPERSON}16",
        "SIGNIN_EDITOR_GROUPS": "lab-editors",
        "SIGNIN_MEMBER_GROUPS": "lab-members",
    }
    shell(server_environment, MAKE_MEMBER)
    try:
        with runserver(environment) as url:
            address = f"{url}/accounts/saml/institution-saml/metadata/"
            with urllib.request.urlopen(address, timeout=30) as answer:
                saml_provider.idp.metadata.load("inline", answer.read().decode())
            yield url
    finally:
        shell(server_environment, REMOVE_MEMBER)


def test_a_member_signs_in_through_saml_in_the_browser_and_finds_their_papers(browser, saml_site):
    page = admin_sign_in_page(browser, saml_site)
    refused = policy_breaches(page)
    page.get_by_role("button", name=f"Sign in with {INSTITUTION}").click()
    # The identity provider's own sign-in page, on its port.
    page.wait_for_url(lambda url: "/sso?" in url and not url.startswith(saml_site))
    page.locator("input[name=username]").fill("grace")
    page.locator("input[name=password]").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    # Its answer page posts the signed Response to the portal's assertion consumer service.
    back_signed_in_as_grace(page, saml_site)
    assert refused == []
    page.context.close()
