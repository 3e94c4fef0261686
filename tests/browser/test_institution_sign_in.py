"""Signing in with the institution in the browser: Chromium clicks "Sign in with Example
University" on the admin's sign-in page, is sent to the local OpenID Connect provider
(django-oauth-toolkit, tests/signin/provider/, on its own loopback port), signs in there and
comes back signed in as the member the provider's groups make them, on their own papers."""

from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import VIEWPORTS, runserver, shell
from tests.signin.conftest import (
    CLIENT_ID,
    CLIENT_SECRET,
    INSTITUTION,
    identity_provider,  # noqa: F401 (the provider, started once)
)
from tests.signin.provider.prepare import PASSWORD

MAKE_MEMBER = """
from people.models import Person
from publications.models import Authorship, Publication
grace = Person.objects.create(name="Grace Hopper", slug="grace-hopper", email="grace@institution.example")
paper = Publication.objects.create(title="Compiling Routines", slug="compiling-routines", year=2026)
Authorship.objects.create(publication=paper, position=1, name="Grace Hopper", researcher=grace.researcher)
"""
# The served site is shared by the whole browser suite: what this module adds, it takes away.
REMOVE_MEMBER = """
from django.contrib.auth.models import User
from people.models import Person
from publications.models import Publication
Publication.objects.filter(slug="compiling-routines").delete()
Person.objects.filter(slug="grace-hopper").delete()
User.objects.filter(socialaccount__isnull=False).delete()
"""


@pytest.fixture(scope="module")
def institution_site(site_url, server_environment, identity_provider) -> Iterator[str]:  # noqa: F811
    """The browser suite's site and database, served a second time on its own port with the
    institution configured from the environment, as an operator would."""
    environment = {
        **server_environment,
        "OIDC_ISSUER_URL": identity_provider,
        "OIDC_CLIENT_ID": CLIENT_ID,
        "OIDC_CLIENT_SECRET": CLIENT_SECRET,
        "SIGNIN_INSTITUTION_NAME": INSTITUTION,
        "SIGNIN_EDITOR_GROUPS": "lab-editors",
        "SIGNIN_MEMBER_GROUPS": "lab-members",
    }
    shell(server_environment, MAKE_MEMBER)
    try:
        with runserver(environment) as url:
            yield url
    finally:
        shell(server_environment, REMOVE_MEMBER)


def test_a_member_signs_in_with_the_institution_and_finds_their_papers(browser, institution_site):
    page = admin_sign_in_page(browser, institution_site)
    page.get_by_role("button", name=f"Sign in with {INSTITUTION}").click()
    # At the institution's own sign-in page, on the provider's port.
    page.wait_for_url(lambda url: "/login/?next=" in url and not url.startswith(institution_site))
    page.get_by_label("Username").fill("grace")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    back_signed_in_as_grace(page, institution_site)
    page.context.close()


def admin_sign_in_page(browser, site: str):
    """A new browser on the admin's sign-in page, which offers "Sign in with …"."""
    context = browser.new_context(viewport=VIEWPORTS["desktop"], base_url=site)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto("/admin/login/?next=/admin/")
    return page


def back_signed_in_as_grace(page, site: str) -> None:
    """Back from the institution: on Grace's own profile, her papers listed, as a member."""
    page.wait_for_url(lambda url: url.startswith(f"{site}/admin/"))
    expect(page.get_by_role("heading", name="Edit my profile")).to_be_visible()
    page.get_by_role("link", name="My papers").click()
    expect(page.get_by_role("heading", name="My papers")).to_be_visible()
    expect(page.locator("#result_list")).to_contain_text("Compiling Routines")
    # A member, not an editor: the editors' pages are not theirs.
    answer = page.goto("/admin/auth/user/")
    assert answer is not None and answer.status == 403
