"""Fills the test provider's folder: its database, its RSA signing key, the institution's
people (USERS) and the portal as a client. Run with OIDC_PROVIDER_FOLDER and
DJANGO_SETTINGS_MODULE=tests.signin.provider.settings set; argv: client id, secret, redirect
URIs (separated by spaces)."""

import os
import sys
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

PASSWORD = "institution-password"
# username: what is wrong with the ID token the provider gives that person (tampering.py)
TAMPERED = {
    "forged-signature": "its payload was changed after it was signed",
    "wrong-audience": "it was signed for another client",
    "wrong-issuer": "it names another issuer",
    "expired": "it expired an hour ago",
    "wrong-nonce": "it carries a nonce the portal did not send",
    "non-ascii-nonce": "it carries a nonce with letters outside ASCII",
    "no-expiry": "it says nothing of when it expires",
    "hs256": "it is signed with HS256 and a shared secret instead of the provider's RSA key",
    "no-id-token": "the token response carries no ID token at all",
    "userinfo-another-sub": "the userinfo answer names another person than the ID token",
}
# username: how the provider alters an answer that must still be believed
SOUND = {
    "no-kid": "its ID token's header names no key, and the provider publishes only one",
    "userinfo-editor": "its userinfo answer adds the editors' group the ID token does not list",
}
# username: (email, groups, ORCID iD or "")
USERS = {
    "ada": ("ada@institution.example", ["lab-editors"], ""),
    "grace": ("grace@institution.example", ["lab-members"], ""),
    "orcid-only": ("someone-else@institution.example", ["lab-members"], "0000-0002-1825-0097"),
    "stranger": ("stranger@institution.example", ["library-staff"], ""),
    "twin": ("shared@institution.example", ["lab-members"], ""),
    # Editors whose ID token the provider alters (tampering.py): none may sign in.
    **{name: (f"{name}@institution.example", ["lab-editors"], "") for name in TAMPERED},
    "no-kid": ("no-kid@institution.example", ["lab-editors"], ""),
    "userinfo-editor": ("userinfo-editor@institution.example", ["lab-members"], ""),
}


def main(client_id: str, secret: str, redirect_uri: str) -> None:
    folder = Path(os.environ["OIDC_PROVIDER_FOLDER"])
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    (folder / "signing-key.pem").write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    import django

    django.setup()
    from django.contrib.auth.models import Group, User
    from django.core.management import call_command
    from oauth2_provider.models import Application

    call_command("migrate", verbosity=0)
    for username, (email, groups, orcid) in USERS.items():
        user = User.objects.create_user(username, email, PASSWORD, last_name=orcid)
        for name in groups:
            user.groups.add(Group.objects.get_or_create(name=name)[0])
    Application.objects.create(
        name="Lab portal",
        client_id=client_id,
        client_secret=secret,
        client_type=Application.CLIENT_CONFIDENTIAL,
        authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
        redirect_uris=redirect_uri,
        algorithm=Application.RS256_ALGORITHM,
        skip_authorization=True,
    )


if __name__ == "__main__":
    main(*sys.argv[1:4])
