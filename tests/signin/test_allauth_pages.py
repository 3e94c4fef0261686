"""django-allauth's own pages under /accounts/ (the sign-out confirmation, a sign-in cancelled
or refused, a login switched off, its sign-in address) are the site's pages: its header, its
stylesheet, its Content-Security-Policy with nothing inline, and plain sentences. They were
allauth's bare pages ("Third-Party Login Failure", "Account Inactive") with no header."""

import re

import pytest

pytestmark = pytest.mark.django_db

VISITOR_PAGES = {
    "/accounts/login/": (200, "Sign in"),
    "/accounts/inactive/": (200, "This login is switched off"),
    "/accounts/3rdparty/login/cancelled/": (200, "Sign-in cancelled"),
    "/accounts/3rdparty/login/error/": (401, "Sign-in refused"),
}
MEMBER_PAGES = {
    "/accounts/logout/": (200, "Sign out"),
    "/accounts/3rdparty/": (200, None),
}


def looks_like_the_site(response, heading: str | None) -> None:
    page = response.content.decode()
    assert '<header class="site-header">' in page
    assert "css/site.css" in page
    assert re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page) is None
    assert "<style" not in page and " style=" not in page
    assert "unsafe-inline" not in response["Content-Security-Policy"]
    assert '<meta name="robots" content="noindex">' in page
    if heading:
        assert f"<h1>{heading}</h1>" in page
        assert re.search(rf"<title>{heading} · [^<]+</title>", page)


@pytest.mark.parametrize("path", list(VISITOR_PAGES))
def test_allauths_pages_for_a_visitor_are_the_sites_pages(client, path):
    status, heading = VISITOR_PAGES[path]
    response = client.get(path)
    assert response.status_code == status
    looks_like_the_site(response, heading)


@pytest.mark.parametrize("path", list(MEMBER_PAGES))
def test_allauths_pages_for_a_member_are_the_sites_pages(client, member_lab, path):
    client.force_login(member_lab["ada"].user)
    status, heading = MEMBER_PAGES[path]
    response = client.get(path)
    assert response.status_code == status
    looks_like_the_site(response, heading)


def test_the_sign_out_page_asks_in_a_sentence_and_signs_out_on_its_button(client, member_lab):
    client.force_login(member_lab["ada"].user)
    page = client.get("/accounts/logout/").content.decode()
    assert "on this browser?" in page
    assert client.post("/accounts/logout/").status_code == 302
    assert "_auth_user_id" not in client.session


def test_a_cancelled_sign_in_names_the_institution(client, settings):
    settings.SIGNIN_INSTITUTION_NAME = "Example University"
    page = client.get("/accounts/3rdparty/login/cancelled/").content.decode()
    assert "The sign-in with Example University was cancelled. Nothing was changed." in page
