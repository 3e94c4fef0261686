import pytest
from django.core.management import call_command

from directory.management.commands.seed import FIXTURES


@pytest.fixture(autouse=True)
def _test_storage(settings, tmp_path):
    """Uploads go to a temporary folder; static files need no collectstatic step."""
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture
def seeded(db):
    """The four real profiles, as `make run` loads them."""
    call_command("loaddata", *FIXTURES, verbosity=0)


@pytest.fixture
def editor(django_user_model):
    return django_user_model.objects.create_superuser("editor", "editor@example.org", "pw-editor-1")


@pytest.fixture
def editor_client(client, editor):
    client.force_login(editor)
    return client
