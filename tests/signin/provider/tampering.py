"""The provider's token endpoint, answering some people with an ID token that must not be
believed: what a compromised or misconfigured provider, or someone between it and the portal,
could send. The token is the one django-oauth-toolkit issued, then changed: its payload edited
after signing (so its signature no longer verifies), or signed again with the provider's own key
for another client, an issuer that is not this one, a time already past, or a nonce the portal
did not send. Everyone else gets the token endpoint's answer unchanged."""

import json
import time
from pathlib import Path

import jwt
from django.conf import settings
from django.contrib.auth.models import User
from django.http import HttpResponse
from django.utils.decorators import method_decorator
from django.views.decorators.csrf import csrf_exempt
from oauth2_provider.views import TokenView

from tests.signin.provider.prepare import TAMPERED


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
    if how == "wrong-audience":
        claims["aud"] = "another-client"
    elif how == "wrong-issuer":
        claims["iss"] = "http://127.0.0.1:9/not-the-institution"
    elif how == "expired":
        claims["iat"] = int(time.time()) - 7200
        claims["exp"] = int(time.time()) - 3600
    elif how == "wrong-nonce":
        claims["nonce"] = "a-nonce-the-portal-never-sent"
    key = Path(settings.OAUTH2_PROVIDER["OIDC_RSA_PRIVATE_KEY_FILE"]).read_text()
    return jwt.encode(claims, key, algorithm=header["alg"], headers={"kid": header["kid"]})


@method_decorator(csrf_exempt, name="dispatch")
class TamperingTokenView(TokenView):
    def post(self, request, *args, **kwargs) -> HttpResponse:
        response = super().post(request, *args, **kwargs)
        if response.status_code != 200:
            return response
        body = json.loads(response.content)
        id_token = body.get("id_token")
        if not id_token:
            return response
        subject = jwt.decode(id_token, options={"verify_signature": False})["sub"]
        username = User.objects.get(pk=subject).username
        if username in TAMPERED:
            body["id_token"] = tampered(id_token, username)
            response.content = json.dumps(body).encode()
        return response
