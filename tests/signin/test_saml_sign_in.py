"""Signing in with the institution through SAML, against a real identity provider (pysaml2's,
signing with xmlsec1: tests/signin/saml_idp.py) on 127.0.0.1: the portal fetches its metadata,
sends an AuthnRequest, and checks the signed answer with python3-saml through allauth."""

import pytest
import requests
from django.contrib.auth import get_user_model
from django.test import Client

from base.roles import EDIT_ALL, MEMBER_LOGINS_GROUP
from tests.factories import make_person
from tests.signin.conftest import INSTITUTION
from tests.signin.provider.prepare import PASSWORD
from tests.signin.saml_idp import posted_form

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.needs("xmlsec1"),
]

LOGIN = "/accounts/saml/institution-saml/login/"


HOST = "lab.example.org"


@pytest.fixture
def client(settings) -> Client:
    """A browser sends the Host header, which python3-saml reads (Django's client does not),
    with a dotted name as python3-saml asks of the addresses it answers to."""
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, HOST]
    return Client(HTTP_HOST=HOST)


def identity_provider_answer(
    client: Client, username: str, saml_identity_provider
) -> tuple[str, dict[str, str]]:
    """From "Sign in with …" to the signed answer the browser would post back to the portal.
    The identity provider trusts the portal as an institution's would: from its metadata."""
    metadata = client.get("/accounts/saml/institution-saml/metadata/")
    assert metadata.status_code == 200
    saml_identity_provider.idp.metadata.load("inline", metadata.content.decode())
    started = client.post(LOGIN, {"next": "/admin/"})
    assert started.status_code == 302, started.content[:500]
    browser = requests.Session()
    login_page = browser.get(started["Location"], timeout=30)
    _, fields = posted_form(login_page.text)
    answer = browser.post(
        login_page.url.split("/sso")[0] + "/sso/login",
        data={**fields, "username": username, "password": PASSWORD},
        timeout=30,
    )
    assert answer.status_code == 200, answer.text[:500]
    action, fields = posted_form(answer.text)
    assert action.startswith(f"http://{HOST}/accounts/saml/institution-saml/acs/")
    return action.removeprefix(f"http://{HOST}"), fields


def sign_in(client: Client, username: str, saml_provider):
    action, fields = identity_provider_answer(client, username, saml_provider)
    return client.post(action, fields, follow=True)


def signed_in_user(client: Client):
    return get_user_model().objects.get(pk=client.session["_auth_user_id"])


def test_the_admin_sign_in_page_offers_the_institution_through_saml(client, saml_configured):
    page = client.get("/admin/login/").content.decode()
    assert f"Sign in with {INSTITUTION}" in page and f'action="{LOGIN}"' in page


def test_an_editor_signs_in_through_saml_and_lands_in_the_admin_as_an_editor(
    client, saml_configured
):
    page = sign_in(client, "ada", saml_configured)
    assert page.redirect_chain[-1][0] == "/admin/"
    user = signed_in_user(client)
    assert user.is_staff and user.has_perm(EDIT_ALL) and not user.is_superuser


def test_a_member_signs_in_through_saml_and_is_linked_to_their_profile(client, saml_configured):
    grace = make_person(name="Grace Hopper", email="grace@institution.example")
    sign_in(client, "grace", saml_configured)
    grace.refresh_from_db()
    user = signed_in_user(client)
    assert grace.user == user and user.groups.filter(name=MEMBER_LOGINS_GROUP).exists()


def test_a_member_is_linked_by_the_eduperson_orcid_attribute(client, saml_configured):
    someone = make_person(name="Orcid Person", orcid="0000-0002-1825-0097")
    sign_in(client, "orcid-only", saml_configured)
    someone.refresh_from_db()
    assert someone.user == signed_in_user(client)


def test_a_person_in_no_mapped_group_gets_no_staff_access_through_saml(client, saml_configured):
    sign_in(client, "stranger", saml_configured)
    user = signed_in_user(client)
    assert not user.is_staff and not user.groups.exists()


def test_a_tampered_saml_answer_is_refused_with_400_and_a_sentence(client, saml_configured):
    import base64

    action, fields = identity_provider_answer(client, "stranger", saml_configured)
    signed = base64.b64decode(fields["SAMLResponse"]).decode()
    tampered = signed.replace("library-staff", "lab-editors")
    assert tampered != signed
    fields["SAMLResponse"] = base64.b64encode(tampered.encode()).decode()
    refused = client.post(action, fields, follow=True)
    assert refused.status_code == 400
    assert "was refused" in refused.content.decode()
    assert "_auth_user_id" not in client.session
