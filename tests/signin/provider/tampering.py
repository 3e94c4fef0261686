"""The provider's token and userinfo endpoints, answering some people with what must not be
believed: what a compromised or misconfigured provider, or someone between it and the portal,
could send. The ID token is the one django-oauth-toolkit issued, then changed: its payload edited
after signing (so its signature no longer verifies), or signed again with the provider's own key
for another client, an issuer that is not this one, a time already past, no expiry, a nonce the
portal did not send, or signed with HS256 and a shared secret; or left out of the token response.
The userinfo answer may name another person. A few alterations must still be believed (SOUND in
prepare.py). Everyone else gets the endpoints' answers unchanged."""

import json
import time
from collections.abc import Callable
from pathlib import Path

import jwt
from django.conf import settings
from django.contrib.auth.models import User
from django.http import HttpResponse
from django.utils.decorators import method_decorator
from django.views.decorators.csrf import csrf_exempt
from oauth2_provider.views import TokenView, UserInfoView

from tests.signin.provider.prepare import SOUND, TAMPERED


def tampered(id_token: str, how: str) -> str:
    header = jwt.get_unverified_header(id_token)
    claims = jwt.decode(id_token, options={"verify_signature": False})
    if how == "forged-signature":
        signing_input, signature = id_token.rsplit(".", 1)
        encoded_header = signing_input.split(".", 1)[0]
        claims["sub"] = "1"  # someone else
        claims["preferred_username"] = "ada"
        payload = jwt.utils.base64url_encode(json.dumps(claims).encode()).decode()
        return f"{encoded_header}.{payload}.{signature}"
    if how == "hs256":
        return jwt.encode(
            claims,
            "a-secret-the-portal-never-shared",
            algorithm="HS256",
            headers={"kid": header["kid"]},
        )
    if how == "wrong-audience":
        claims["aud"] = "another-client"
    elif how == "wrong-issuer":
        claims["iss"] = "http://127.0.0.1:9/not-the-institution"
    elif how == "expired":
        claims["iat"] = int(time.time()) - 7200
        claims["exp"] = int(time.time()) - 3600
    elif how == "no-expiry":
        del claims["exp"]
    elif how == "wrong-nonce":
        claims["nonce"] = "a-nonce-the-portal-never-sent"
    elif how == "non-ascii-nonce":
        claims["nonce"] = "un-nonce-é"
    key = Path(settings.OAUTH2_PROVIDER["OIDC_RSA_PRIVATE_KEY_FILE"]).read_text()
    headers = {} if how == "no-kid" else {"kid": header["kid"]}
    return jwt.encode(claims, key, algorithm=header["alg"], headers=headers)


def username_of(subject: str) -> str:
    return User.objects.get(pk=subject).username


def altered_token_response(body: dict) -> None:
    id_token = body.get("id_token")
    if not id_token:
        return
    username = username_of(jwt.decode(id_token, options={"verify_signature": False})["sub"])
    if username == "no-id-token":
        del body["id_token"]
    elif username in TAMPERED or username in SOUND:
        body["id_token"] = tampered(id_token, username)


def altered_userinfo(body: dict) -> None:
    username = username_of(body["sub"])
    if username == "userinfo-another-sub":
        body["sub"] = str(User.objects.get(username="ada").pk)
        body["preferred_username"] = "ada"
    elif username == "userinfo-editor":
        body["groups"] = [*body["groups"], "lab-editors"]


def with_altered_body(response: HttpResponse, alter: Callable[[dict], None]) -> HttpResponse:
    """A successful JSON answer with `alter` applied to its body; any other answer as it is."""
    if response.status_code == 200:
        body = json.loads(response.content)
        alter(body)
        response.content = json.dumps(body).encode()
    return response


@method_decorator(csrf_exempt, name="dispatch")
class TamperingTokenView(TokenView):
    def post(self, request, *args, **kwargs) -> HttpResponse:
        return with_altered_body(super().post(request, *args, **kwargs), altered_token_response)


@method_decorator(csrf_exempt, name="dispatch")
class TamperingUserInfoView(UserInfoView):
    def get(self, request, *args, **kwargs) -> HttpResponse:
        return with_altered_body(super().get(request, *args, **kwargs), altered_userinfo)
