"""The password validators apply to `createsuperuser --noinput` too."""

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("password", ["1", "password", "root-admin", "12345678901"])
def test_a_weak_password_from_the_environment_is_refused(monkeypatch, password):
    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", password)
    with pytest.raises(CommandError, match="DJANGO_SUPERUSER_PASSWORD is refused"):
        call_command(
            "createsuperuser", "--noinput", "--username", "root-admin", "--email", "r@x.org"
        )
    assert not get_user_model().objects.filter(username="root-admin").exists()


def test_a_strong_password_from_the_environment_creates_the_superuser(monkeypatch):
    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", "correct horse battery staple")
    call_command(
        "createsuperuser", "--noinput", "--username", "root", "--email", "r@x.org", verbosity=0
    )
    user = get_user_model().objects.get(username="root")
    assert user.is_superuser and user.check_password("correct horse battery staple")
