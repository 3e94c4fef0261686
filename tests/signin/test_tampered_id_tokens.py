"""An answer the portal must not believe, sent by the real local provider
(tests/signin/provider/tampering.py alters it at the provider's token and userinfo endpoints):
an ID token with a payload changed after signing, another client's audience, another issuer, a
time already past or none, a nonce the portal did not send or one outside ASCII, a signature
with HS256 and a shared secret; no ID token at all; a userinfo answer about another person.
Each ends on the callback with a 400 and a sentence, nobody signed in, no login made."""

import pytest
from allauth.socialaccount.models import SocialAccount
from django.contrib.auth import get_user_model

from base.roles import EDIT_ALL
from tests.signin.provider.prepare import TAMPERED
from tests.signin.test_openid_connect_sign_in import provider_answer, signed_in_user

pytestmark = [
    pytest.mark.django_db(transaction=False),
    pytest.mark.usefixtures("institution_configured"),
]


@pytest.mark.parametrize("username", sorted(TAMPERED))
def test_an_answer_that_cannot_be_believed_is_refused_with_400_and_nothing_is_made(
    client, username
):
    logins_before = get_user_model().objects.count()
    refused = client.get(provider_answer(client, username))
    assert refused.status_code == 400, TAMPERED[username]
    page = refused.content.decode()
    assert "The sign-in with Example University was refused" in page
    assert "_auth_user_id" not in client.session
    assert get_user_model().objects.count() == logins_before
    assert not SocialAccount.objects.exists()


def test_the_portal_asks_for_a_nonce_and_an_untouched_token_with_it_signs_in(client):
    """The nonce the portal sends is the one the provider's token carries back: the check above
    refuses only a token that was changed."""
    started = client.post("/accounts/oidc/institution/login/", {"next": "/admin/"})
    assert "nonce=" in started["Location"]
    client.get(provider_answer(client, "ada"))
    assert "_auth_user_id" in client.session


def test_an_id_token_naming_no_key_is_checked_with_the_one_key_the_provider_publishes(client):
    """OpenID Connect Core §10.1 lets a provider with a single key leave `kid` out."""
    client.get(provider_answer(client, "no-kid"))
    assert signed_in_user(client).has_perm(EDIT_ALL)


def test_the_role_comes_from_the_signed_id_token_not_from_the_unsigned_userinfo(client):
    """The userinfo answer adds the editors' group; the ID token lists the person as a member
    only, and the ID token is the one whose signature was checked."""
    client.get(provider_answer(client, "userinfo-editor"))
    user = signed_in_user(client)
    assert not user.has_perm(EDIT_ALL)
    assert not user.is_staff
