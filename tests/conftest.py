import pytest
from django.core.management import call_command
from django.db import transaction

# The shared helpers' asserts explain their failures as the tests' own do.
pytest.register_assert_rewrite("tests.cases", "tests.factories")

from config.management.commands.seed import FIXTURES  # noqa: E402
from tests.cases import make_editor  # noqa: E402


@pytest.fixture(autouse=True)
def _test_settings(settings, tmp_path):
    """Uploads go to a temporary folder; static files need no collectstatic step; passwords
    hash fast (tests make many logins)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture(scope="module")
def seeded(django_db_setup, django_db_blocker):
    """The four real profiles, as `make run` loads them, for every test of a module.

    Loaded once per module inside a transaction that is rolled back after its last test, so
    a module that uses it must use it in every test: put tests that build their own rows with
    tests/factories.py in another module.
    """
    with django_db_blocker.unblock(), transaction.atomic():
        call_command("loaddata", *FIXTURES, verbosity=0)
        yield
        transaction.set_rollback(True)


@pytest.fixture
def editor(db):
    return make_editor()


@pytest.fixture
def editor_client(client, editor):
    client.force_login(editor)
    return client
