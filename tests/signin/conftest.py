import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from config.settings import sign_in_providers

PROJECT = Path(__file__).resolve().parent.parent.parent
CLIENT_ID = "lab-portal"
CLIENT_SECRET = "a-client-secret-for-the-tests-only"
CALLBACK = "http://testserver/accounts/oidc/institution/login/callback/"
# The browser suite's served site (tests/browser/test_institution_sign_in.py): a loopback
# address, whose port the provider ignores as RFC 8252 asks.
LOOPBACK_CALLBACK = "http://127.0.0.1/accounts/oidc/institution/login/callback/"
INSTITUTION = "Example University"


@pytest.fixture(scope="session")
def identity_provider(tmp_path_factory) -> Iterator[str]:
    """django-oauth-toolkit's OpenID Connect provider (tests/signin/provider/), served by
    gunicorn on a free port of 127.0.0.1; its issuer URL."""
    from benchmarks.http import Server

    folder = tmp_path_factory.mktemp("identity-provider")
    environment = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.signin.provider.settings",
        "OIDC_PROVIDER_FOLDER": str(folder),
        "PYTHONPATH": str(PROJECT),
    }
    subprocess.run(
        [
            *(sys.executable, "-m", "tests.signin.provider.prepare", CLIENT_ID, CLIENT_SECRET),
            f"{CALLBACK} {LOOPBACK_CALLBACK}",
        ],
        cwd=PROJECT,
        env=environment,
        check=True,
    )
    server = Server(environment, folder / "copies")
    try:
        yield f"http://127.0.0.1:{server.port}/o"
    finally:
        server.stop()


@pytest.fixture
def institution_configured(settings, identity_provider) -> str:
    """The portal set up as an operator would from the environment, with the test provider."""
    settings.OIDC_ISSUER_URL = identity_provider
    settings.SIGNIN_INSTITUTION_NAME = INSTITUTION
    settings.SIGNIN_GROUPS_CLAIM = "groups"
    settings.SIGNIN_EDITOR_GROUPS = ["lab-editors"]
    settings.SIGNIN_MEMBER_GROUPS = ["lab-members"]
    settings.SOCIALACCOUNT_PROVIDERS = sign_in_providers(
        name=INSTITUTION, issuer=identity_provider, client_id=CLIENT_ID, secret=CLIENT_SECRET
    )
    return identity_provider


@pytest.fixture(scope="session")
def saml_provider(tmp_path_factory):
    """pysaml2's identity provider on a free port of 127.0.0.1 (tests/signin/saml_idp.py)."""
    from tests.signin.saml_idp import saml_identity_provider

    with saml_identity_provider(tmp_path_factory.mktemp("saml-idp")) as server:
        yield server


@pytest.fixture
def saml_configured(settings, saml_provider):
    from tests.signin.saml_idp import EDUPERSON, ENTITLEMENT

    settings.SAML_METADATA_URL = f"{saml_provider.url}/metadata"
    settings.SIGNIN_INSTITUTION_NAME = INSTITUTION
    settings.SIGNIN_GROUPS_CLAIM = ENTITLEMENT
    settings.SIGNIN_ORCID_CLAIM = f"{EDUPERSON}16"
    settings.SIGNIN_EDITOR_GROUPS = ["lab-editors"]
    settings.SIGNIN_MEMBER_GROUPS = ["lab-members"]
    settings.SOCIALACCOUNT_PROVIDERS = sign_in_providers(
        name=INSTITUTION,
        saml_metadata_url=f"{saml_provider.url}/metadata",
        saml_idp_entity_id=f"{saml_provider.url}/metadata",
    )
    return saml_provider
