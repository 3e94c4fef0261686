"""Signing in with the institution through OpenID Connect, against a real provider
(django-oauth-toolkit, tests/signin/provider/) on 127.0.0.1: the portal's side runs in the test
client, the browser's side at the provider is plain HTTP with `requests`, and the portal asks
the provider for its configuration, the token and the user's claims over HTTP itself."""

import re
from urllib.parse import parse_qs, urlsplit

import pytest
import requests
from django.contrib.auth import get_user_model
from django.test import Client

from base.roles import EDIT_ALL, MEMBER_LOGINS_GROUP
from config.settings import sign_in_providers
from tests.factories import make_person
from tests.signin.conftest import INSTITUTION
from tests.signin.provider.prepare import PASSWORD

pytestmark = [
    pytest.mark.django_db(transaction=False),
    pytest.mark.usefixtures("institution_configured"),
]

LOGIN = "/accounts/oidc/institution/login/"


def provider_answer(client: Client, username: str) -> str:
    """From "Sign in with …" on the portal to the provider's redirect back: the path and query
    the browser would be sent to on the portal (code and state)."""
    started = client.post(LOGIN, {"next": "/admin/"})
    assert started.status_code == 302, started.content[:500]
    authorize = started["Location"]
    assert "code_challenge=" in authorize and "code_challenge_method=S256" in authorize
    browser = requests.Session()
    answer = browser.get(authorize, allow_redirects=False, timeout=30)
    assert answer.status_code == 302 and "/login/" in answer.headers["Location"], answer.text[:500]
    login_url = requests.compat.urljoin(authorize, answer.headers["Location"])
    page = browser.get(login_url, timeout=30)
    next_url = re.search(r'name="next" value="([^"]*)"', page.text).group(1)
    signed_in = browser.post(
        login_url,
        data={
            "username": username,
            "password": PASSWORD,
            "next": next_url.replace("&amp;", "&"),
            "csrfmiddlewaretoken": browser.cookies["institution_csrftoken"],
        },
        allow_redirects=False,
        timeout=30,
    )
    assert signed_in.status_code == 302, signed_in.text[:500]
    back = browser.get(
        requests.compat.urljoin(login_url, signed_in.headers["Location"]),
        allow_redirects=False,
        timeout=30,
    )
    assert back.status_code == 302, back.text[:500]
    location = urlsplit(back.headers["Location"])
    assert location.netloc == "testserver", back.headers["Location"]
    return f"{location.path}?{location.query}"


def sign_in(client: Client, username: str):
    return client.get(provider_answer(client, username), follow=True)


def signed_in_user(client: Client):
    return get_user_model().objects.get(pk=client.session["_auth_user_id"])


def test_the_admin_sign_in_page_offers_the_institution_only_when_configured(client, settings):
    page = client.get("/admin/login/").content.decode()
    assert f"Sign in with {INSTITUTION}" in page
    assert f'action="{LOGIN}"' in page
    assert 'name="password"' in page  # the password login is still there
    settings.OIDC_ISSUER_URL = ""
    assert "Sign in with" not in client.get("/admin/login/").content.decode()


def test_the_sign_in_address_answers_only_when_an_identity_provider_is_configured(client, settings):
    assert client.post(LOGIN).status_code == 302
    settings.SOCIALACCOUNT_PROVIDERS = sign_in_providers(name=INSTITUTION)
    assert client.post(LOGIN).status_code == 404
    assert client.post("/accounts/saml/institution-saml/login/").status_code == 404


def test_a_person_in_the_editors_group_lands_in_the_admin_as_an_editor_not_a_superuser(client):
    page = sign_in(client, "ada")
    assert page.status_code == 200
    assert page.redirect_chain[-1][0] == "/admin/"
    user = signed_in_user(client)
    assert user.is_staff and user.has_perm(EDIT_ALL)
    assert not user.is_superuser
    assert client.get("/admin/publications/publication/").status_code == 200


def test_a_member_is_linked_to_the_one_profile_with_their_email_and_edits_it(client):
    grace = make_person(name="Grace Hopper", email="Grace@Institution.example")
    page = sign_in(client, "grace")
    assert page.status_code == 200
    user = signed_in_user(client)
    grace.refresh_from_db()
    assert grace.user == user
    assert user.is_staff and not user.has_perm(EDIT_ALL) and not user.is_superuser
    assert user.groups.filter(name=MEMBER_LOGINS_GROUP).exists()
    assert client.get(f"/admin/people/person/{grace.pk}/change/").status_code == 200


def test_a_member_is_linked_by_orcid_when_the_email_names_no_profile(client):
    someone = make_person(name="Orcid Person", orcid="0000-0002-1825-0097")
    sign_in(client, "orcid-only")
    someone.refresh_from_db()
    assert someone.user == signed_in_user(client)


def test_a_member_whose_email_two_profiles_share_gets_no_rights_and_a_sentence(client):
    make_person(name="One Twin", email="shared@institution.example")
    make_person(name="Other Twin", email="shared@institution.example")
    page = sign_in(client, "twin")
    user = signed_in_user(client)
    assert not user.is_staff and not user.groups.exists()
    assert "no single profile on this site has your email address" in page.content.decode()
    assert client.get("/admin/").status_code == 302  # back to the sign-in page


def test_a_person_in_no_mapped_group_gets_no_staff_access(client):
    page = sign_in(client, "stranger")
    user = signed_in_user(client)
    assert not user.is_staff and not user.is_superuser and not user.groups.exists()
    assert "does not list you in a group that may edit this site" in page.content.decode()
    assert client.get("/admin/publications/publication/").status_code == 302


def test_a_role_taken_away_at_the_institution_is_taken_away_at_the_next_sign_in(client, settings):
    sign_in(client, "ada")
    assert signed_in_user(client).has_perm(EDIT_ALL)
    client.logout()
    settings.SIGNIN_EDITOR_GROUPS = ["someone-elses-group"]
    sign_in(client, "ada")
    user = signed_in_user(client)
    assert not user.is_staff and not user.groups.exists()


def test_a_tampered_state_is_refused_with_400_and_a_sentence(client):
    answer = provider_answer(client, "ada")
    path, query = answer.split("?", 1)
    params = {key: values[0] for key, values in parse_qs(query).items()}
    params["state"] = params["state"][:-2] + "xx"
    refused = client.get(path, params)
    assert refused.status_code == 400
    assert "The sign-in with Example University was refused" in refused.content.decode()
    assert "_auth_user_id" not in client.session


def test_a_tampered_code_is_refused_by_the_provider_and_here_with_400(client):
    answer = provider_answer(client, "ada")
    path, query = answer.split("?", 1)
    params = {key: values[0] for key, values in parse_qs(query).items()}
    params["code"] = params["code"][::-1]
    refused = client.get(path, params)
    assert refused.status_code == 400
    assert "was refused" in refused.content.decode()
    assert "_auth_user_id" not in client.session


def test_the_admin_index_names_institution_sign_ins_and_hides_allauths_empty_tables(client):
    client.force_login(get_user_model().objects.create_superuser("root", "root@example.org"))
    page = client.get("/admin/").content.decode()
    assert "Institution sign-ins" in page
    for jargon in ("Social applications", "Social application tokens", "Email addresses"):
        assert jargon not in page
