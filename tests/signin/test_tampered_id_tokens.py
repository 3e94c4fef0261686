"""An ID token the portal must not believe, sent by the real local provider
(tests/signin/provider/tampering.py alters it at the provider's token endpoint): a payload
changed after signing, another client's audience, another issuer, a time already past, a nonce
the portal did not send. Each ends on the callback with a 400 and a sentence, nobody signed in,
no login made."""

import pytest
from allauth.socialaccount.models import SocialAccount
from django.contrib.auth import get_user_model

from tests.signin.provider.prepare import TAMPERED
from tests.signin.test_openid_connect_sign_in import provider_answer

pytestmark = [
    pytest.mark.django_db(transaction=False),
    pytest.mark.usefixtures("institution_configured"),
]


@pytest.mark.parametrize("username", sorted(TAMPERED))
def test_an_id_token_that_cannot_be_believed_is_refused_with_400_and_nothing_is_made(
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
