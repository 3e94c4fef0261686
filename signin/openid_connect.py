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

import jwt
from allauth.socialaccount.adapter import get_adapter
from allauth.socialaccount.internal import jwtkit
from allauth.socialaccount.models import SocialApp, SocialLogin, SocialToken
from allauth.socialaccount.providers.base.utils import respond_to_login_on_get
from allauth.socialaccount.providers.oauth2.client import OAuth2Error
from allauth.socialaccount.providers.oauth2.views import OAuth2CallbackView, OAuth2LoginView
from allauth.socialaccount.providers.openid_connect.views import OpenIDConnectOAuth2Adapter
from django.http import Http404, HttpRequest, HttpResponse

# Algorithms verified with a published public key; "none" and the HMAC ones (HS256, ...) are not.
PUBLIC_KEY_ALGORITHMS = frozenset(
    {"RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"}
)


class CheckedTokenAdapter(OpenIDConnectOAuth2Adapter):
    """Decodes the ID token with its signature verified and its nonce compared with the one
    kept in this sign-in's state (set by `CallbackView` before the token is fetched), and
    refuses an answer without an ID token or whose userinfo is about someone else."""

    expected_nonce: str | None = None

    def complete_login(
        self, request: HttpRequest, app: SocialApp, token: SocialToken, **kwargs: Any
    ) -> SocialLogin:
        """allauth's, except that there is always an ID token to check: allauth signs in from
        the unsigned userinfo answer alone when the token response has none. The userinfo
        answer must be about the ID token's subject (OpenID Connect Core §5.3.2)."""
        id_token = kwargs["response"].get("id_token")
        if not id_token:
            raise OAuth2Error("The provider's answer carries no ID token.")
        data: dict[str, Any] = {"id_token": self._decode_id_token(app, id_token)}
        if app.settings.get("fetch_userinfo", True):
            userinfo = self._fetch_user_info(token.token)
            if not isinstance(userinfo, dict) or userinfo.get("sub") != data["id_token"]["sub"]:
                raise OAuth2Error("The provider's userinfo answer is about another person.")
            data["userinfo"] = userinfo
        login: SocialLogin = self.get_provider().sociallogin_from_response(request, data)
        return login

    def _decode_id_token(self, app: SocialApp, id_token: str) -> dict[str, Any]:
        """The ID token's claims, checked: signed by one of the provider's published keys with
        an algorithm the provider says it signs with (never the one the token's own header
        names), for this client, by this issuer, issued and not expired, with this sign-in's
        nonce. Anything malformed is a refusal, not an error page."""
        try:
            claims: dict[str, Any] = jwt.decode(
                id_token,
                key=self._signing_key(id_token),
                algorithms=self._signing_algorithms(),
                issuer=self.openid_config["issuer"],
                audience=app.client_id,
                options={"require": ["exp", "iat", "iss", "aud", "sub"]},
            )
            jwtkit.verify_jti(claims)
        except (jwt.PyJWTError, KeyError, TypeError, ValueError) as error:
            raise OAuth2Error("The provider's ID token cannot be believed.") from error
        nonce = claims.get("nonce")
        if (
            not self.expected_nonce
            or not isinstance(nonce, str)
            or not secrets.compare_digest(nonce.encode(), self.expected_nonce.encode())
        ):
            raise OAuth2Error("The ID token does not carry the nonce this sign-in sent.")
        return claims

    def _signing_algorithms(self) -> list[str]:
        """The public-key algorithms the provider's configuration lists (RS256 if it lists
        none): HS256 would be checked with the client secret, which no published key is."""
        listed = self.openid_config.get("id_token_signing_alg_values_supported") or ["RS256"]
        return [name for name in listed if name in PUBLIC_KEY_ALGORITHMS]

    def _signing_key(self, id_token: str) -> Any:
        """The published key the token's header names by `kid`, or the only one published when
        it names none (OpenID Connect Core §10.1)."""
        kid = jwt.get_unverified_header(id_token).get("kid")
        with get_adapter().get_requests_session() as session:
            response = session.get(self.openid_config["jwks_uri"])
            response.raise_for_status()
            keys = jwt.PyJWKSet.from_dict(response.json()).keys
        if kid is None and len(keys) == 1:
            return keys[0].key
        for key in keys:
            if kid is not None and key.key_id == kid:
                return key.key
        raise OAuth2Error("The provider publishes no key for its ID token.")


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
