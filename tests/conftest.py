from pathlib import Path

import pytest
from django.db import connection
from django.test import override_settings
from django.utils import translation
from hypothesis import HealthCheck, Phase, settings

# The shared helpers' asserts explain their failures as the tests' own do.
pytest.register_assert_rewrite("tests.cases", "tests.factories")

from base import site_cache  # noqa: E402
from tests import live_site, tools  # noqa: E402
from tests.cases import make_editor  # noqa: E402
from tests.live_site import keep_test_database_as_migrated, manage, site_environment  # noqa: E402


def pytest_addoption(parser):
    parser.addoption(
        "--browser-matrix",
        choices=("whole", "desktop-light"),
        default="whole",
        help=(
            "whole: every browser test at each screen size and colour scheme (the default, the "
            "README's test command); desktop-light: those at the desktop size in the light scheme "
            "only, for a second run on another database, where a size or a scheme changes nothing "
            "the database does (.ci/run's PostgreSQL run)."
        ),
    )
    parser.addoption(
        "--sqlite-sites",
        choices=("run", "skip"),
        default="run",
        help=(
            "run: the tests whose served or restored site is a SQLite database of its own "
            "whatever DATABASE_URL names (SQLITE_SITES) run too (the default, the README's test "
            "command); skip: they are left out, for a second run on another database that "
            "would only repeat them (.ci/run's PostgreSQL run)."
        ),
    )


# The tests that start a site of their own on SQLite (tests/live_site.py site_environment,
# without a DATABASE_URL of the suite's server) and use neither the suite's test database nor
# its cache server: run on PostgreSQL they repeat the SQLite run's work to the byte. In
# tests/base/test_backup_restore.py, those of the small SQLite backup (`small_backup`: what
# they test happens before any database is written, and the one in this process has its
# database step replaced); its tests of `database_urls` restore on the suite's server.
SQLITE_SITES = (
    "tests/base/test_backup_restore.py",
    "tests/base/test_admin_pages_under_write_lock.py",
    "tests/base/test_sign_in_under_write_lock.py",
    "tests/config/test_concurrent_admin_saves.py",
    "tests/config/test_production_server.py",
    "tests/people/test_cv_pdf_printed_by_worker_process.py",
    "tests/publications/test_bibtex_import_alongside_writers.py",
)
TEST_DATABASE = {"db", "transactional_db", "django_db_setup", "live_server"}


def is_sqlite_site_test(item: pytest.Item) -> bool:
    return item.nodeid.split("::")[0] in SQLITE_SITES and "database_urls" not in item.fixturenames


def pytest_collection_modifyitems(config, items):
    if config.getoption("sqlite_sites") == "run":
        return
    # Their SQLite run is elsewhere: a SQLite site now is a test missing from the list.
    live_site.SQLITE_SITES_LEFT_OUT = connection.vendor != "sqlite"
    left_out = [item for item in items if is_sqlite_site_test(item)]
    for item in left_out:
        uses_database = TEST_DATABASE & set(item.fixturenames) or item.get_closest_marker(
            "django_db"
        )
        if uses_database and "small_backup" not in item.fixturenames:
            raise pytest.UsageError(
                f"{item.nodeid} uses the suite's test database: it is no SQLite site's test "
                "and must run on every database (tests/conftest.py, SQLITE_SITES)."
            )
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = [item for item in items if item not in set(left_out)]


def pytest_runtest_setup(item):
    """`@pytest.mark.needs("chromium")`: a tool from Debian (tests/tools.py) the test calls."""
    tools.needs_tools(*(name for marker in item.iter_markers("needs") for name in marker.args))


def pytest_terminal_summary(terminalreporter):
    reasons = [str(report.longrepr) for report in terminalreporter.stats.get("skipped", [])]
    if line := tools.closing_line(reasons):
        terminalreporter.write_line(line, yellow=True, bold=True)


@pytest.fixture(scope="session", autouse=True)
def _session_cache():
    """Outside each test's own cache (below), the default one is in this process's memory:
    what writes to it there (the migrations making the test database, a test class's
    setUpTestData, rows a module's tests share) would otherwise go to the folder of files
    every site on the machine shares by default, where each write lists the whole folder
    (Django's FileBasedCache culling, up to 20,000 files): minutes of a run."""
    local = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "session"}
    with override_settings(CACHES={"default": local}):
        yield


@pytest.fixture(autouse=True)
def _test_settings(settings, tmp_path, request):
    """Uploads go to a temporary folder; static files need no collectstatic step; passwords
    hash fast (tests make many logins); each test has a cache of its own, so no page cached
    in one test is served in another (base/site_cache.py)."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"test-{request.node.nodeid}",
        }
    }
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # The page cache as production runs it, whatever DEBUG the shell has (it defaults to off
    # with DEBUG); tests about rendering anew turn it off themselves.
    settings.SITE_CACHE = True
    # Counts exact on the next request after a write; the tests of counts served late while
    # they are counted anew (base/caches.py, lags) set the production bound themselves.
    settings.SITE_CACHE_LAG_SECONDS = 0
    # This process's copies of kept values (list entries, BibTeX entries) start empty too: the
    # next test's rows may reuse a rolled-back test's ids.
    site_cache._kept.clear()
    # A request to a /zh-hans/ page leaves Chinese active in this thread, and reverse() (a
    # model's get_absolute_url) would then give the next test's addresses under /zh-hans/.
    translation.activate(settings.LANGUAGE_CODE)
    settings.MEDIA_ROOT = tmp_path / "media"
    # No related papers' model until a test builds one (publications/related.py).
    settings.RELATED_PAPERS_MODEL = tmp_path / "related-papers.npz"
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """On PostgreSQL, no autovacuum in the test database.

    Every test's rows are rolled back, so autovacuum soon finds tables full of dead rows and
    records them as holding none (reltuples 0) while their pages remain. The planner then counts
    a test's few hundred rows as one and picks nested loops that take minutes (a profile's
    co-authors query ran for over an hour on a busy machine).

    Kept first, as it is, as the database every migrated site copies (tests/live_site.py).
    """
    with django_db_blocker.unblock():
        keep_test_database_as_migrated(connection)
    if connection.vendor == "postgresql":
        with django_db_blocker.unblock(), connection.cursor() as cursor:
            for table in connection.introspection.table_names(cursor):
                cursor.execute(f'ALTER TABLE "{table}" SET (autovacuum_enabled = false)')


@pytest.fixture(scope="session")
def collected_static(tmp_path_factory) -> Path:
    """The static files as `collectstatic` leaves them with DEBUG off (hashed names, compressed
    copies), collected once per run for every served site (the browser suite's, the concurrent
    saves' gunicorn): compressing them takes 20 s."""
    static = tmp_path_factory.mktemp("collected-static")
    work = tmp_path_factory.mktemp("collectstatic")
    manage(site_environment(work, STATIC_ROOT=str(static)), "collectstatic", "--noinput")
    return static


@pytest.fixture
def editor(db):
    return make_editor()


@pytest.fixture
def editor_client(client, editor):
    client.force_login(editor)
    return client


@pytest.fixture
def no_page_cache(settings):
    """Every request renders its page: what it reuses is what the page keeps of its parts."""
    settings.SITE_CACHE = False


@pytest.fixture
def rendered_anew(no_page_cache):
    """For the tests of kept parts that commit for real (transaction=True): the page cache off,
    and the lab's row made here, not by the first request (its making is a write, which moves
    the change stamp). A test before that committed emptied the tables, the lab's row too."""
    from base.models import Lab

    Lab.objects.current()


@pytest.fixture
def member_lab(db):
    """Two members who sign in (Ada Lovelace, Grace Hopper) and an editor (Edith Editor), for
    the tests of who links whom to which paper."""
    from tests.factories import make_member, make_staff_login

    editor = make_staff_login("edith", role="Editors")
    editor.first_name, editor.last_name = "Edith", "Editor"
    editor.save(update_fields=["first_name", "last_name"])
    return {
        "ada": make_member("ada", "Ada Lovelace"),
        "grace": make_member("grace", "Grace Hopper"),
        "editor": editor,
    }


# The property-based tests (tests/test_properties_*.py): the same examples on every run and
# every machine (derandomized, no example database), a bounded number of them, and no deadline
# per example (a page fetch on a busy CI machine varies).
settings.register_profile(
    "lab",
    derandomize=True,
    database=None,
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
# To see a failure fast while fixing it: pytest --hypothesis-profile=lab-no-shrink (shrinking a
# failing page-rendering example can take minutes).
settings.register_profile(
    "lab-no-shrink", settings.get_profile("lab"), phases=[Phase.explicit, Phase.generate]
)
settings.load_profile("lab")
