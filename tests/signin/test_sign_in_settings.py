"""Institutional sign-in is configured from the environment only, and off unless configured."""

import secrets

import pytest

from tests.config.test_security import deployment_check
from tests.config.test_settings import load_setting, load_settings


@pytest.mark.parametrize(
    ("environment", "named"),
    [
        ({"OIDC_ISSUER_URL": "https://login.example.edu"}, "OIDC_CLIENT_ID and OIDC_CLIENT_SECRET"),
        ({"SAML_METADATA_URL": "https://idp.example.edu/metadata"}, "SAML_IDP_ENTITY_ID"),
        ({"SIGNIN_EDITOR_GROUPS": "staff,,admins"}, "SIGNIN_EDITOR_GROUPS="),
        (
            {
                "OIDC_ISSUER_URL": "http://login.example.edu",
                "OIDC_CLIENT_ID": "a",
                "OIDC_CLIENT_SECRET": "b",
            },
            "must come over HTTPS",
        ),
        ({"SIGNIN_FORM_ACTION_ORIGINS": "idp.example.edu"}, "SIGNIN_FORM_ACTION_ORIGINS names"),
    ],
)
def test_a_half_configured_identity_provider_stops_start_up_naming_what_is_missing(
    environment, named
):
    result = load_settings(SECRET_KEY="k", **environment)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert named in result.stderr


PROVIDERS = {
    "OIDC_ISSUER_URL": "https://login.example.edu/realms/staff",
    "OIDC_CLIENT_ID": "lab-portal",
    "OIDC_CLIENT_SECRET": secrets.token_urlsafe(30),
    "SAML_METADATA_URL": "https://idp.example.edu/metadata",
    "SAML_IDP_ENTITY_ID": "https://idp.example.edu/idp",
}


def test_both_identity_providers_are_read_from_the_environment_and_pass_the_deploy_checklist():
    providers = load_setting("SOCIALACCOUNT_PROVIDERS", SECRET_KEY="k", **PROVIDERS)
    for name in ("OIDC_ISSUER_URL", "OIDC_CLIENT_ID", "SAML_IDP_ENTITY_ID"):
        assert PROVIDERS[name] in providers
    assert "'APPS': []" in load_setting("SOCIALACCOUNT_PROVIDERS", SECRET_KEY="k")
    result = deployment_check(**PROVIDERS)
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


def test_the_identity_providers_origins_may_receive_the_sign_in_forms_redirect():
    """The button's form is redirected to the provider: the Content-Security-Policy's
    form-action must allow it (tests/browser/test_institution_sign_in.py signs in through it)."""
    policy = load_setting("CONTENT_SECURITY_POLICY", SECRET_KEY="k", **PROVIDERS)
    assert "'https://idp.example.edu', 'https://login.example.edu']" in policy
    unconfigured = load_setting("CONTENT_SECURITY_POLICY", SECRET_KEY="k")
    assert """'form-action': ["'self'"]""" in unconfigured


def test_a_sign_in_page_on_another_host_than_the_metadata_is_allowed_when_named():
    """A federation publishes its metadata on one host and the university's sign-in page is on
    another: the operator names that page's origin."""
    policy = load_setting(
        "CONTENT_SECURITY_POLICY",
        SECRET_KEY="k",
        **PROVIDERS,
        SIGNIN_FORM_ACTION_ORIGINS="https://sso.example.edu",
    )
    assert "'https://sso.example.edu'" in policy
