"""A real OpenID Connect provider for the sign-in tests: django-oauth-toolkit's, in a Django
project of its own, served by gunicorn on a free loopback port (tests/signin/conftest.py).

Its SQLite database and RSA signing key live in OIDC_PROVIDER_FOLDER, which
`python -m tests.signin.provider.prepare` fills: the institution's people and their groups,
and the portal registered as a confidential client.
"""

import os
from pathlib import Path

FOLDER = Path(os.environ["OIDC_PROVIDER_FOLDER"])
HERE = Path(__file__).resolve().parent

SECRET_KEY = "oidc-provider-tests-only"
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1"]
INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "oauth2_provider",
]
MIDDLEWARE = [
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
]
ROOT_URLCONF = "tests.signin.provider.urls"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [HERE / "templates"],
        "OPTIONS": {"context_processors": ["django.template.context_processors.request"]},
    }
]
DATABASES = {
    "default": {"ENGINE": "django.db.backends.sqlite3", "NAME": FOLDER / "provider.sqlite3"}
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
USE_TZ = True
LOGIN_URL = "/login/"
# Cookies are kept per host, not per port: with Django's names, the provider's session cookie
# on 127.0.0.1 would replace the portal's in a browser (tests/browser/test_institution_sign_in.py).
SESSION_COOKIE_NAME = "institution_sessionid"
CSRF_COOKIE_NAME = "institution_csrftoken"
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # test users only
key_file = FOLDER / "signing-key.pem"
OAUTH2_PROVIDER = {
    "OIDC_ENABLED": True,
    "OIDC_RSA_PRIVATE_KEY": key_file.read_text() if key_file.exists() else "",
    # Read again by the token endpoint that signs altered ID tokens (tampering.py).
    "OIDC_RSA_PRIVATE_KEY_FILE": str(key_file),
    # A client that sends no code challenge is refused: the tests pass only if the portal
    # uses PKCE.
    "PKCE_REQUIRED": True,
    "ALLOWED_REDIRECT_URI_SCHEMES": ["http", "https"],
    "OAUTH2_VALIDATOR_CLASS": "tests.signin.provider.validator.InstitutionValidator",
    "SCOPES": {
        "openid": "Who you are",
        "profile": "Your name",
        "email": "Your email address",
    },
}
