"""The password validators (settings.AUTH_PASSWORD_VALIDATORS) apply to every way a password is
set: createsuperuser with or without questions, a superuser adding a login or setting its
password in the admin, and a login changing its own password."""

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.urls import reverse

pytestmark = pytest.mark.django_db

WEAK = ["1", "password", "root-admin", "12345678901"]
STRONG = "correct horse battery staple"


@pytest.mark.parametrize("password", WEAK)
def test_a_weak_password_from_the_environment_is_refused(monkeypatch, password):
    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", password)
    with pytest.raises(CommandError, match="DJANGO_SUPERUSER_PASSWORD is refused"):
        call_command(
            "createsuperuser", "--noinput", "--username", "root-admin", "--email", "r@x.org"
        )
    assert not get_user_model().objects.filter(username="root-admin").exists()


def test_a_strong_password_from_the_environment_creates_the_superuser(monkeypatch):
    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", STRONG)
    call_command(
        "createsuperuser", "--noinput", "--username", "root", "--email", "r@x.org", verbosity=0
    )
    user = get_user_model().objects.get(username="root")
    assert user.is_superuser and user.check_password(STRONG)


@pytest.mark.parametrize("password", ["1", "12345678901"])
def test_a_login_added_in_the_admin_needs_a_password_the_validators_accept(editor_client, password):
    add = reverse("admin:auth_user_add")
    form = {"username": "grace", "usable_password": "true"}
    weak = editor_client.post(add, {**form, "password1": password, "password2": password})
    assert weak.status_code == 200
    assert weak.context["adminform"].form.errors["password2"]
    assert not get_user_model().objects.filter(username="grace").exists()
    strong = editor_client.post(add, {**form, "password1": STRONG, "password2": STRONG})
    assert strong.status_code == 302
    assert get_user_model().objects.get(username="grace").check_password(STRONG)


def test_a_password_a_superuser_sets_for_a_login_meets_the_validators(
    editor_client, django_user_model
):
    login = django_user_model.objects.create_user("grace", password=STRONG)
    url = reverse("admin:auth_user_password_change", args=[login.pk])
    response = editor_client.post(
        url, {"usable_password": "true", "password1": "grace", "password2": "grace"}
    )
    assert response.status_code == 200
    assert "too similar to the username" in response.content.decode()
    login.refresh_from_db()
    assert login.check_password(STRONG)


def test_a_login_changing_its_own_password_meets_the_validators(client, django_user_model):
    login = django_user_model.objects.create_user("grace", password=STRONG, is_staff=True)
    client.force_login(login)
    response = client.post(
        reverse("admin:password_change"),
        {"old_password": STRONG, "new_password1": "1", "new_password2": "1"},
    )
    assert response.status_code == 200
    assert "This password is too short" in response.content.decode()
    login.refresh_from_db()
    assert login.check_password(STRONG)
