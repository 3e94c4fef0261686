"""Settings for the lab directory, read from the environment.

Every value an operator may change comes from an environment variable; a malformed value stops
start-up with a message that names the variable, rather than running with a guess.
"""

import hashlib
import os
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
import django_stubs_ext
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

django_stubs_ext.monkeypatch()

BASE_DIR = Path(__file__).resolve().parent.parent

TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"0", "false", "no", "off", ""}


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    word = value.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(
        f"{name}={value!r} is not a boolean: use one of {sorted(TRUE_WORDS | FALSE_WORDS)}."
    )


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if value is None:
        return default
    items = [item.strip() for item in value.split(",")]
    if not all(items):
        raise ImproperlyConfigured(f"{name}={value!r} has an empty item: separate names by commas.")
    return items


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    if value is None:
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not a whole number.") from None


def env_database(name: str, default: str) -> dj_database_url.DBConfig:
    value = os.environ.get(name) or default
    if not value.startswith(("sqlite:", "postgres:", "postgresql:", "pgsql:")):
        raise ImproperlyConfigured(
            f"{name}={value!r} is not a database URL: use sqlite:///path/to/file.sqlite3 "
            "or postgres://user:password@host:port/name."
        )
    # A PostgreSQL connection costs a server process and its start-up, several milliseconds:
    # more than a cached page. Each app server process keeps its own open (health-checked
    # before reuse) unless told otherwise; SQLite opens a file, which costs next to nothing.
    server = not value.startswith("sqlite:")
    try:
        config = dj_database_url.parse(
            value,
            conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 600 if server else 0),
            conn_health_checks=server,
        )
    except ValueError as error:
        raise ImproperlyConfigured(f"{name}={value!r} cannot be read: {error}") from None
    if config["ENGINE"] == "django.db.backends.sqlite3" and config["NAME"] in ("", ":memory:"):
        raise ImproperlyConfigured(f"{name}={value!r} names no SQLite file.")
    return config


def env_cache(name: str, default: str, *, key_prefix: str) -> dict[str, str | dict[str, int]]:
    """CACHE_URL: redis://host:port/db (several app servers share it), file:///folder (the app
    servers of one machine), locmem:// (one process only) or dummy:// (nothing kept)."""
    value = os.environ.get(name) or default
    scheme, _, rest = value.partition("://")
    common = {"KEY_PREFIX": key_prefix}
    if scheme in ("redis", "rediss", "unix"):
        return {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": value,
            **common,
        }
    if scheme == "file" and rest.startswith("/"):
        return {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": rest,
            # A page per filter combination: the default 300 entries would keep few of them.
            "OPTIONS": {"MAX_ENTRIES": env_int("CACHE_MAX_ENTRIES", 20_000)},
            **common,
        }
    if scheme == "locmem":
        return {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": rest,
            **common,
        }
    if scheme == "dummy":
        return {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}
    raise ImproperlyConfigured(
        f"{name}={value!r} is not a cache URL: use redis://host:port/0, file:///path/to/folder, "
        "locmem:// or dummy://."
    )


DEBUG = env_bool("DEBUG", default=False)

# "production" turns on everything `manage.py check --deploy` asks for: HTTPS only, HSTS,
# secure cookies. Anything else ("development", the default) leaves plain HTTP working.
DJANGO_ENV = os.environ.get("DJANGO_ENV", "development")
if DJANGO_ENV not in {"development", "production"}:
    raise ImproperlyConfigured(f"DJANGO_ENV={DJANGO_ENV!r} must be development or production.")
PRODUCTION = DJANGO_ENV == "production"
if PRODUCTION and DEBUG:
    raise ImproperlyConfigured("DEBUG=1 is refused when DJANGO_ENV=production.")

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. Set it to a long random string, or set DEBUG=1 for local "
            "development."
        )
    SECRET_KEY = "django-insecure-local-development-only"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])

INSTALLED_APPS = [
    # The project package, for its commands: first, so that its createsuperuser (which checks
    # the password validators with --noinput too) replaces django.contrib.auth's.
    "config",
    # django.contrib.admin, with the lab's admin site (base/admin_site.py).
    "base.apps.LabAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "config.apps.StaticFiles",
    "django.contrib.sitemaps",
    "django_filters",
    # The JSON API (config/api.py); listed so its docs use its own static files, not a CDN.
    "ninja",
    "corsheaders",
    "axes",
    "simple_history",
    "django_tasks",
    "django_tasks_db",
    # Institutional sign-in (signin/): django-allauth's social accounts, with its OpenID Connect
    # and SAML providers; on only where the environment configures an identity provider.
    "allauth",
    "allauth.account",
    "allauth.socialaccount",
    "allauth.socialaccount.providers.openid_connect",
    "allauth.socialaccount.providers.saml",
    # The shared base (its app label, `directory`, kept from the first version, so no migration
    # moves), then the apps from the bottom up.
    "base",
    "people",
    "signin",
    "publications",
    "events",
    "outputs",
    "projects",
    "news",
    # Every public HTML page, above the apps whose rows it shows.
    "pages",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # CORS headers for /api/ only (CORS_URLS_REGEX), before anything that may answer first.
    "corsheaders.middleware.CorsMiddleware",
    # Errors under /api/ as JSON, whichever middleware or view made them.
    "config.middleware.ApiJsonErrorsMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Before sessions and the views: a 304 or a cached page costs one or two cache reads.
    "base.site_cache.SiteCacheMiddleware",
    # A sign-in's writes, the session's save included, in one transaction that waits for
    # SQLite's write lock (base/write_lock.py): before SessionMiddleware, whose save it holds.
    "base.write_lock.SignInWritesMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The language from the address (/zh-hans/...), never from the browser: after the page
    # cache, whose keys hold the address; before CommonMiddleware, as Django asks.
    "config.middleware.LanguageFromAddressMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # django-allauth's, for its sign-in flows (signin/).
    "allauth.account.middleware.AccountMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    # Records who made each change, for the history of every edited object.
    "simple_history.middleware.HistoryRequestMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into its lockout response.
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    # First, so a locked-out address is refused before any password is checked.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
    # Signs in the logins an institution's identity provider vouches for (signin/); it
    # accepts no password itself (ACCOUNT_ adapter below closes its sign-up and login forms).
    "allauth.account.auth_backends.AuthenticationBackend",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "pages.context_processors.lab",
                "pages.context_processors.fragments",
            ],
        },
    },
]

DATABASES = {
    "default": env_database("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Concurrent staff saves on SQLite (README, "When to move to PostgreSQL"): WAL lets pages
    # read while someone writes; a write transaction takes the write lock when it begins
    # (IMMEDIATE), so two saves queue for up to `timeout` seconds instead of one failing with
    # "database is locked" when it upgrades a read lock.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": env_int("SQLITE_BUSY_TIMEOUT", 20),
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
# A web request waits this long in all for the write lock, whatever the busy timeout, and then
# answers 503 "busy, try again in a minute": well within a client's or a proxy's patience.
SQLITE_WRITE_WAIT_SECONDS = env_int("SQLITE_WRITE_WAIT", 30)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The public pages are kept whole in this cache, keyed by a site-wide change stamp that any save
# moves (base/site_cache.py). By default a folder of files, which the app server processes
# of one machine share; with several machines, a Redis server they all use (CACHE_URL=redis://).
# Keys are prefixed by the database, so two sites sharing a cache server never mix pages.
_database = DATABASES["default"]
CACHES = {
    "default": env_cache(
        "CACHE_URL",
        "file://" + str(Path(tempfile.gettempdir()) / "lab-directory-cache"),
        key_prefix=hashlib.sha256(
            f"{_database.get('HOST')}:{_database.get('PORT')}/{_database['NAME']}".encode()
        ).hexdigest()[:10],
    )
}
# SITE_CACHE=0 renders every page every time, and sends no ETag (for measuring, debugging);
# the aggregates pages share (facet counts, co-authors) stay cached per stamp. Off by default
# with DEBUG (`make run`): a template being edited shows on the next reload, where a kept page
# would be served until the next save.
SITE_CACHE = env_bool("SITE_CACHE", default=not DEBUG)
# Seconds a page stays cached; a save makes it unreachable long before.
SITE_CACHE_TIMEOUT = env_int("SITE_CACHE_TIMEOUT", 24 * 3600)
# Pages each app server process also keeps in its own memory, most recently used (about
# 200 KB each), so that a cache hit costs no file or network read.
SITE_CACHE_LOCAL_PAGES = env_int("SITE_CACHE_LOCAL_PAGES", 100)
# Publication list entries (about 5 KB each as UTF-8, more with a long abstract), and apart as
# many BibTeX entries, each process keeps rendered: a page rendered anew renders only the
# entries no list has shown since the last change (base.site_cache.cached_each).
SITE_CACHE_LOCAL_ENTRIES = env_int("SITE_CACHE_LOCAL_ENTRIES", 5_000)
# The parts of papers' pages (three a paper, about 45 KB a paper with its related papers'
# entries and its Cite block) each process keeps rendered (pages.views.publications.publication).
SITE_CACHE_LOCAL_PAPER_PAGES = env_int("SITE_CACHE_LOCAL_PAPER_PAGES", 1_500)
# Counts over many papers (a list's facets and years, a profile's papers per year and
# co-authors) are shown as they were for at most this many seconds after a write moved them,
# while one process counts them anew after its answer (base/caches.py, lags).
SITE_CACHE_LAG_SECONDS = env_int("SITE_CACHE_LAG_SECONDS", 60)
# After an editor's save, the process that answered it renders at most this many of the pages
# showing the change (the paper's own page, then its members' profiles) once the answer is
# sent, and keeps them: the first visitor after the edit gets them from the cache (0: none).
SITE_CACHE_WARM_PAGES = env_int("SITE_CACHE_WARM_PAGES", 4)
SITE_CACHE_EXCLUDED_PATHS = [
    "/admin/",
    "/accounts/",
    "/healthz",
    os.environ.get("MEDIA_URL", "/media/"),
]
# Rows no public page shows: saving them (a login, a session, a queued task) keeps the stamp.
SITE_CACHE_IGNORED_MODELS = [
    "sessions",
    "admin",
    "auth",
    "contenttypes",
    "axes",
    "account",
    "socialaccount",
    "django_tasks",
    "django_tasks_database",
    "publications.BibtexImport",
    # Members' suggested works and their checks: for staff, on no public page.
    "publications.Suggestion",
    "publications.WorkCheck",
    # The claim and correction queue: for staff and the claiming member, on no kept page (a
    # decision changes author rows, which note their own scopes).
    "publications.Claim",
    # Made from papers and authors in the writes that change them, which note their own scopes.
    "publications.CoauthorPair",
]
# The code's version in every ETag and cache key; computed from the source when empty.
SITE_RELEASE = os.environ.get("SITE_RELEASE", "")

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# The public pages in English at their plain addresses and in Simplified Chinese under /zh-hans/
# (docs/decisions/languages.md): the address alone says the language, so the page cache, ETags
# and search engines' hreflang alternates need nothing else. The admin and the API stay English.
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("zh-hans", "简体中文"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", BASE_DIR / "staticfiles"))
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_URL = os.environ.get("MEDIA_URL", "/media/")
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", BASE_DIR / "media"))
# Let Django serve MEDIA_URL from MEDIA_ROOT: on while developing, and for a site on one
# machine; off where a web server or object store serves the uploads.
SERVE_MEDIA = env_bool("SERVE_MEDIA", default=DEBUG)

STORAGES = {
    # Any Django storage backend, e.g. an S3 one from django-storages with its own settings.
    "default": {
        "BACKEND": os.environ.get("MEDIA_STORAGE", "django.core.files.storage.FileSystemStorage")
    },
    "staticfiles": {
        # Hashed, compressed names in production; plain files while developing, so a
        # newcomer needs no collectstatic step.
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage",
    },
}

FIXTURE_DIRS = [BASE_DIR / "fixtures"]

# Whether a paper, talk, dataset or software a member adds waits, as a draft, until an editor
# publishes it (listed for editors on the admin's index), or is on the site at once. The lab's
# choice (README, "Staff"); the name is older than talks and outputs.
MEMBER_PAPERS_WAIT_FOR_EDITOR = env_bool("MEMBER_PAPERS_WAIT_FOR_EDITOR", default=True)

# Background work (a large BibTeX import) is queued in the database and run by
# `manage.py db_worker`, which `make run` starts beside the web server.
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
# The related papers' model (publications/related.py): the worker writes it after papers change,
# every app server process of this machine reads it. Outside the static and media folders: it is
# not for visitors to download. Needs the `related` extra to be built (README).
RELATED_PAPERS_MODEL = Path(
    os.environ.get("RELATED_PAPERS_MODEL", BASE_DIR / "var" / "related-papers.npz")
)
# A BibTeX import of more entries than this runs in the worker, with a progress page; smaller
# ones run in the request, so a site without a worker can still import a few papers.
BIBTEX_INLINE_IMPORT_MAX_ENTRIES = env_int("BIBTEX_INLINE_IMPORT_MAX_ENTRIES", 200)
# A BibTeX upload with more entries than this (counted where they start) or more bytes is read
# and reviewed in the worker too: reading and showing 25,000 entries took 30 s in a request.
BIBTEX_INLINE_REVIEW_MAX_ENTRIES = env_int("BIBTEX_INLINE_REVIEW_MAX_ENTRIES", 1000)
BIBTEX_INLINE_REVIEW_MAX_BYTES = env_int("BIBTEX_INLINE_REVIEW_MAX_BYTES", 512 * 1024)
# A BibTeX job the worker has not reported on for this long is marked failed, with "Start
# again" on its page: the worker died or was killed. It reports every 1,000 entries read and
# every 100 saved (about 5 s when 5,000 entries took 4 minutes to save on a busy machine).
BIBTEX_WORKER_TIMEOUT_SECONDS = env_int("BIBTEX_WORKER_TIMEOUT_SECONDS", 120)
# Adding papers by identifier (publications/identifiers/): whether the admin and
# `manage.py import_works` ask Crossref, arXiv, ORCID, dblp and OpenAlex over the network. Off
# unless the operator turns it on, so a site (and every test) makes no outside request by
# default; uploading what those services export works either way. The contact address goes into
# the User-Agent the services ask polite clients to send; a request waits at most the timeout.
IDENTIFIER_FETCHING = env_bool("IDENTIFIER_FETCHING", default=False)
IDENTIFIER_CONTACT_EMAIL = os.environ.get("IDENTIFIER_CONTACT_EMAIL", "")
IDENTIFIER_FETCH_TIMEOUT_SECONDS = env_int("IDENTIFIER_FETCH_TIMEOUT_SECONDS", 10)
# Where each service answers (IDENTIFIER_CROSSREF_URL…); tests point them at a server on
# 127.0.0.1 serving tests/data/identifiers.
IDENTIFIER_SERVICE_URLS = {
    name: os.environ.get(f"IDENTIFIER_{name.upper()}_URL", default)
    for name, default in {
        "crossref": "https://api.crossref.org",
        "arxiv": "https://export.arxiv.org/api",
        "orcid": "https://pub.orcid.org/v3.0",
        "dblp": "https://dblp.org",
        "openalex": "https://api.openalex.org",
        # Datasets and software by DOI (outputs/fetching.py), Zenodo's DOIs among them.
        "datacite": "https://api.datacite.org",
    }.items()
}
# Members' new works (publications/suggestions/): `manage.py check_new_works`, run by a timer
# (README, "Scheduled tasks"), queues a check of each member with an ORCID iD or a dblp link
# not checked for this many hours, so the timer may run it more often than that.
WORKS_CHECK_INTERVAL_HOURS = env_int("WORKS_CHECK_INTERVAL_HOURS", 24 * 7)
# Visitors' CV PDFs are printed by the task worker (base/pdf_renders.py); a signed-in
# member's or editor's preview is printed in the request, at most this many at once in each
# process (each takes seconds of a CPU and a server thread), 503 with Retry-After beyond.
CV_PDF_MAX_CONCURRENT_RENDERS = env_int("CV_PDF_MAX_CONCURRENT_RENDERS", 1)
# While a visitor's CV PDF is printed again after a change, visitors get the PDF as it was
# before, if it was printed at most this many seconds ago (else 503 with Retry-After).
CV_PDF_PREVIOUS_SECONDS = env_int("CV_PDF_PREVIOUS_SECONDS", 300)

# Uploaded photos larger than this are refused before Pillow looks at them.
PHOTO_MAX_BYTES = env_int("PHOTO_MAX_BYTES", 8 * 1024 * 1024)
# Photos with more pixels than this are refused from their header, before they are decoded:
# 40 million covers a 7000 × 5000 camera image, and decoding one takes about 120 MB of memory.
PHOTO_MAX_PIXELS = env_int("PHOTO_MAX_PIXELS", 40_000_000)

# Security headers. No inline script or style anywhere on the site; the admin's scripts are
# files too. frame-ancestors and X-Frame-Options both forbid framing.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
        "base-uri": [SELF],
        "object-src": [NONE],
    },
}
X_FRAME_OPTIONS = "DENY"

# Any site may read the API from a browser (a department page listing a lab's papers): GET
# only, without cookies, and nothing outside /api/.
CORS_URLS_REGEX = r"^/api/.*$"
CORS_ALLOW_ALL_ORIGINS = True
CORS_ALLOW_METHODS = ["GET", "HEAD", "OPTIONS"]
CORS_ALLOW_CREDENTIALS = False
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "strict-origin-when-cross-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_HTTPONLY = True

if PRODUCTION:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=True)
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 365 * 24 * 3600)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", default=True)
    if not SECURE_HSTS_PRELOAD:
        # Leaving the browsers' preload list is the operator's informed choice.
        SILENCED_SYSTEM_CHECKS = ["security.W021"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
    # Read by the check directory.W001 too: behind a proxy, AXES_PROXY_COUNT must be set.
    BEHIND_HTTPS_PROXY = env_bool("BEHIND_HTTPS_PROXY", default=True)
    if BEHIND_HTTPS_PROXY:
        # The proxy in front of the app servers terminates TLS and says so in this header.
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# Institutional sign-in (signin/, docs/decisions/institutional-sign-in.md): staff sign in with
# their institution's account through OpenID Connect or SAML, beside the password login, which
# keeps working. Off unless configured: with no issuer and no SAML metadata, no button shows and
# no provider answers. SIGNIN_INSTITUTION_NAME is what the button says: "Sign in with <name>".
SIGNIN_INSTITUTION_NAME = os.environ.get("SIGNIN_INSTITUTION_NAME", "your institution")
OIDC_ISSUER_URL = os.environ.get("OIDC_ISSUER_URL", "")
OIDC_CLIENT_ID = os.environ.get("OIDC_CLIENT_ID", "")
OIDC_CLIENT_SECRET = os.environ.get("OIDC_CLIENT_SECRET", "")
SAML_METADATA_URL = os.environ.get("SAML_METADATA_URL", "")
SAML_IDP_ENTITY_ID = os.environ.get("SAML_IDP_ENTITY_ID", "")
SAML_SP_ENTITY_ID = os.environ.get("SAML_SP_ENTITY_ID", "")
if OIDC_ISSUER_URL and not (OIDC_CLIENT_ID and OIDC_CLIENT_SECRET):
    raise ImproperlyConfigured(
        "OIDC_ISSUER_URL is set without OIDC_CLIENT_ID and OIDC_CLIENT_SECRET: set all three "
        "(the identity provider gives the client id and secret when the site is registered)."
    )
if bool(SAML_METADATA_URL) != bool(SAML_IDP_ENTITY_ID):
    raise ImproperlyConfigured(
        "SAML_METADATA_URL and SAML_IDP_ENTITY_ID go together: set both, or neither."
    )
# The issuer's answers (its keys, its tokens) are believed only over HTTPS, but on this machine.
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
issuer = urlsplit(OIDC_ISSUER_URL)
if OIDC_ISSUER_URL and issuer.scheme != "https" and issuer.hostname not in LOOPBACK_HOSTS:
    raise ImproperlyConfigured(
        f"OIDC_ISSUER_URL={OIDC_ISSUER_URL!r} is not an https:// address: the provider's "
        "keys and tokens must come over HTTPS."
    )
# "Sign in with …" is a form posted here and redirected to the identity provider, and browsers
# hold a form's redirects to its form-action: the provider's origin is allowed there, else
# Chromium stops the sign-in at its first redirect. Where the provider's sign-in page is on
# another host than its issuer address or its metadata (a federation's metadata aggregator, an
# authorization endpoint elsewhere), SIGNIN_FORM_ACTION_ORIGINS names it.
SIGNIN_FORM_ACTION_ORIGINS = env_list("SIGNIN_FORM_ACTION_ORIGINS", [])
for origin in SIGNIN_FORM_ACTION_ORIGINS:
    if urlsplit(origin).scheme != "https" or urlsplit(origin).path not in ("", "/"):
        raise ImproperlyConfigured(
            f"SIGNIN_FORM_ACTION_ORIGINS names {origin!r}: give origins such as "
            "https://idp.example.edu, separated by commas."
        )
CONTENT_SECURITY_POLICY["DIRECTIVES"]["form-action"] += sorted(
    {
        "{0.scheme}://{0.netloc}".format(urlsplit(url))
        for url in (OIDC_ISSUER_URL, SAML_METADATA_URL, *SIGNIN_FORM_ACTION_ORIGINS)
        if url
    }
)
# Which roles the identity provider's answer gives (signin/roles.py): the claim (OpenID
# Connect) or attribute (SAML) that lists a person's groups, and which of its values make an
# editor and which a member. Editors win when both match; a value matching neither gives no
# rights. Nobody is made a superuser this way. A member's login is linked to the one profile
# whose email address (or ORCID iD, from SIGNIN_ORCID_CLAIM) the identity provider names.
SIGNIN_GROUPS_CLAIM = os.environ.get("SIGNIN_GROUPS_CLAIM", "groups")
SIGNIN_EDITOR_GROUPS = env_list("SIGNIN_EDITOR_GROUPS", [])
SIGNIN_MEMBER_GROUPS = env_list("SIGNIN_MEMBER_GROUPS", [])
SIGNIN_ORCID_CLAIM = os.environ.get("SIGNIN_ORCID_CLAIM", "orcid")
SIGNIN_PROVIDER_ID = "institution"


def sign_in_providers(
    *,
    name: str,
    issuer: str = "",
    client_id: str = "",
    secret: str = "",
    saml_metadata_url: str = "",
    saml_idp_entity_id: str = "",
    saml_sp_entity_id: str = "",
) -> dict[str, dict[str, object]]:
    """django-allauth's SOCIALACCOUNT_PROVIDERS: one OpenID Connect app when an issuer is given,
    one SAML app when metadata is; the tests build theirs with it too (tests/signin/)."""
    saml_sp = {"sp": {"entity_id": saml_sp_entity_id}} if saml_sp_entity_id else {}
    return {
        "openid_connect": {
            # Proof Key for Code Exchange: a stolen authorization code is worth nothing alone.
            "OAUTH_PKCE_ENABLED": True,
            "APPS": [
                {
                    "provider_id": SIGNIN_PROVIDER_ID,
                    "name": name,
                    "client_id": client_id,
                    "secret": secret,
                    "settings": {"server_url": issuer, "scope": ["openid", "profile", "email"]},
                }
            ]
            if issuer
            else [],
        },
        "saml": {
            "APPS": [
                {
                    "provider_id": f"{SIGNIN_PROVIDER_ID}-saml",
                    "name": name,
                    "client_id": f"{SIGNIN_PROVIDER_ID}-saml",
                    "settings": {
                        # The common eduPerson/X.500 attribute names a university's IdP sends.
                        "attribute_mapping": {
                            "uid": "urn:oid:0.9.2342.19200300.100.1.1",
                            "email": "urn:oid:0.9.2342.19200300.100.1.3",
                            "first_name": "urn:oid:2.5.4.42",
                            "last_name": "urn:oid:2.5.4.4",
                        },
                        "idp": {"entity_id": saml_idp_entity_id, "metadata_url": saml_metadata_url},
                        # Only a signed assertion is believed, only one this site asked for.
                        "advanced": {
                            "want_assertion_signed": True,
                            "reject_idp_initiated_sso": True,
                        },
                        **saml_sp,
                    },
                }
            ]
            if saml_metadata_url
            else [],
        },
    }


SOCIALACCOUNT_PROVIDERS = sign_in_providers(
    name=SIGNIN_INSTITUTION_NAME,
    issuer=OIDC_ISSUER_URL,
    client_id=OIDC_CLIENT_ID,
    secret=OIDC_CLIENT_SECRET,
    saml_metadata_url=SAML_METADATA_URL,
    saml_idp_entity_id=SAML_IDP_ENTITY_ID,
    saml_sp_entity_id=SAML_SP_ENTITY_ID,
)
ACCOUNT_ADAPTER = "signin.adapters.AccountAdapter"
SOCIALACCOUNT_ADAPTER = "signin.adapters.InstitutionAdapter"
SOCIALACCOUNT_ONLY = True  # no allauth password forms: the admin's login is the password login
SOCIALACCOUNT_AUTO_SIGNUP = True
# An institution's answer never signs in a login that exists here only by its email address:
# a login is the identity provider's account it was made by (its "sub"), nothing else.
SOCIALACCOUNT_EMAIL_AUTHENTICATION = False
SOCIALACCOUNT_EMAIL_VERIFICATION = "none"
ACCOUNT_EMAIL_VERIFICATION = "none"
ACCOUNT_UNIQUE_EMAIL = False
SOCIALACCOUNT_STORE_TOKENS = False
SOCIALACCOUNT_REQUESTS_TIMEOUT = env_int("SIGNIN_TIMEOUT_SECONDS", 10)
LOGIN_REDIRECT_URL = "/admin/"
LOGIN_URL = "/admin/login/"

# Brute-force protection for the admin login: after AXES_FAILURE_LIMIT failed attempts for
# one username from one address, that pair is locked out for AXES_COOLOFF_HOURS.
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = env_int("AXES_COOLOFF_HOURS", 1)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "admin/locked_out.html"
# Behind N proxies that append to X-Forwarded-For, set AXES_PROXY_COUNT=N so the client's own
# address is used; with none, only REMOTE_ADDR counts (a client could forge the header).
proxy_count = env_int("AXES_PROXY_COUNT", 0)
AXES_PROXY_COUNT_SET = "AXES_PROXY_COUNT" in os.environ  # 0 said on purpose is set
if proxy_count:
    AXES_IPWARE_PROXY_COUNT = proxy_count
    AXES_IPWARE_META_PRECEDENCE_ORDER = ["HTTP_X_FORWARDED_FOR", "REMOTE_ADDR"]
else:
    AXES_IPWARE_META_PRECEDENCE_ORDER = ["REMOTE_ADDR"]

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    # bibtexparser logs each broken block with 0-based line numbers; the import reports
    # problems itself, with the line numbers staff see in their file.
    "loggers": {"bibtexparser": {"level": "ERROR"}},
}
