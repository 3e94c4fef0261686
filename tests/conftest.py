import pytest
from hypothesis import HealthCheck, Phase, settings

# The shared helpers' asserts explain their failures as the tests' own do.
pytest.register_assert_rewrite("tests.cases", "tests.factories")

from tests.cases import make_editor  # noqa: E402


@pytest.fixture(autouse=True)
def _test_settings(settings, tmp_path, request):
    """Uploads go to a temporary folder; static files need no collectstatic step; passwords
    hash fast (tests make many logins); each test has a cache of its own, so no page cached
    in one test is served in another (directory/site_cache.py)."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"test-{request.node.nodeid}",
        }
    }
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture
def editor(db):
    return make_editor()


@pytest.fixture
def editor_client(client, editor):
    client.force_login(editor)
    return client


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
