"""allauth's OpenID Connect flow, with the ID token checked whole: its signature against the
provider's published keys and the nonce this browser's sign-in sent, on top of the issuer,
audience and expiry allauth checks.

allauth skips the signature of a token it fetched itself from the token endpoint (OpenID
Connect Core §3.1.3.7 allows that over TLS) and sends no nonce. An institution's provider may
sit behind a proxy, or be reached over plain HTTP inside a campus network; checking costs one
request for the keys per sign-in, so this site checks everything the specification lets it.
Served at allauth's own addresses and names (signin/urls.py comes first in config/urls.py).
"""

import secrets
from typing import Any

from allauth.socialaccount.internal import jwtkit
from allauth.socialaccount.models import SocialApp
from allauth.socialaccount.providers.base.utils import respond_to_login_on_get
from allauth.socialaccount.providers.oauth2.client import OAuth2Error
from allauth.socialaccount.providers.oauth2.views import OAuth2CallbackView, OAuth2LoginView
from allauth.socialaccount.providers.openid_connect.views import OpenIDConnectOAuth2Adapter
from django.http import Http404, HttpRequest, HttpResponse


class CheckedTokenAdapter(OpenIDConnectOAuth2Adapter):
    """Decodes the ID token with its signature verified and its nonce compared with the one
    kept in this sign-in's state (set by `CallbackView` before the token is fetched)."""

    expected_nonce: str | None = None

    def _decode_id_token(self, app: SocialApp, id_token: str) -> dict[str, Any]:
        claims: dict[str, Any] = jwtkit.verify_and_decode(
            credential=id_token,
            keys_url=self.openid_config["jwks_uri"],
            issuer=self.openid_config["issuer"],
            audience=app.client_id,
            lookup_kid=jwtkit.lookup_kid_jwk,
            verify_signature=True,
        )
        if not self.expected_nonce or not secrets.compare_digest(
            str(claims.get("nonce", "")), self.expected_nonce
        ):
            raise OAuth2Error("The ID token does not carry the nonce this sign-in sent.")
        return claims


class LoginView(OAuth2LoginView):
    """Sends the browser to the provider as allauth does, with a fresh nonce in the request
    and kept in the sign-in's state (allauth stores extra redirect arguments there)."""

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        provider = self.get_provider()
        response: HttpResponse | None = respond_to_login_on_get(request, provider)
        if response:
            return response
        arguments = provider.get_redirect_from_request_kwargs(request)
        nonce = secrets.token_urlsafe(32)
        arguments["auth_params"] = {
            **(arguments.get("auth_params") or provider.get_auth_params()),
            "nonce": nonce,
        }
        redirect: HttpResponse = provider.redirect(request, nonce=nonce, **arguments)
        return redirect


class CallbackView(OAuth2CallbackView):
    def _get_state(self, request: HttpRequest, provider: Any) -> tuple[Any, Any]:
        state, response = super()._get_state(request, provider)
        if state and isinstance(self.adapter, CheckedTokenAdapter):
            self.adapter.expected_nonce = state.get("nonce")
        return state, response


def _answer(
    view_class: type[OAuth2LoginView] | type[OAuth2CallbackView],
    request: HttpRequest,
    provider_id: str,
) -> HttpResponse:
    """allauth's view for the configured app, with the checking adapter; 404 when no app is."""
    try:
        view = view_class.adapter_view(CheckedTokenAdapter(request, provider_id))
        response: HttpResponse = view(request)
    except SocialApp.DoesNotExist as missing:
        raise Http404 from missing
    return response


def login(request: HttpRequest, provider_id: str) -> HttpResponse:
    return _answer(LoginView, request, provider_id)


def callback(request: HttpRequest, provider_id: str) -> HttpResponse:
    return _answer(CallbackView, request, provider_id)
