import pytest

# The shared helpers' asserts explain their failures as the tests' own do.
pytest.register_assert_rewrite("tests.cases", "tests.factories")

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


@pytest.fixture
def editor(db):
    return make_editor()


@pytest.fixture
def editor_client(client, editor):
    client.force_login(editor)
    return client
