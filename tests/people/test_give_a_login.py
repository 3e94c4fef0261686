""" "Give a login" on a person's admin page: one button makes the member's login, with the rights
signing in needs, and shows the one-time address where they choose their password. A login's
own page says whose it is, and keeps the staff status its member needs."""

import re

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse

from base.roles import MEMBER_LOGINS_GROUP
from people.models import Person
from tests.factories import make_person

pytestmark = pytest.mark.django_db


def give_login_url(person: Person) -> str:
    return reverse("admin:people_person_give_login", args=[person.pk])


def test_an_editor_of_the_editors_group_gives_a_login_from_the_persons_page(
    client, django_user_model
):
    """Not only superusers: an editor manages people, though not logins at large."""
    editor = django_user_model.objects.create_user("edith", is_staff=True)
    editor.groups.add(Group.objects.get(name="Editors"))
    ada = make_person(name="Ada Lovelace", slug="ada-lovelace")
    client.force_login(editor)
    page = client.get(reverse("admin:people_person_change", args=[ada.pk]))
    assert f'href="{give_login_url(ada)}"' in page.content.decode()
    assert client.post(give_login_url(ada)).status_code == 200
    ada.refresh_from_db()
    assert ada.user.username == "ada-lovelace"
    assert not ada.user.is_superuser and not ada.user.has_perm("auth.add_user")


def test_giving_a_login_makes_a_member_login_and_a_set_password_address_that_works_once(
    client, editor_client, django_user_model
):
    ada = make_person(name="Ada Lovelace", slug="ada-lovelace", email="ada@example.org")
    django_user_model.objects.create_user("ada-lovelace")  # the slug is taken: numbered

    asked = editor_client.get(give_login_url(ada))
    assert asked.status_code == 200
    assert not django_user_model.objects.filter(person=ada).exists()  # a GET only asks

    response = editor_client.post(give_login_url(ada))
    assert response.status_code == 200
    ada.refresh_from_db()
    login = ada.user
    assert login.username == "ada-lovelace-2"
    assert login.email == "ada@example.org"
    assert login.is_staff and login.is_active and not login.has_usable_password()
    assert login.groups.filter(name=MEMBER_LOGINS_GROUP).exists()
    address = response.context["set_password_url"]
    assert address in response.content.decode()

    # The member, signed out, chooses a password at the address, then signs in with it.
    path = re.sub(r"^https?://[^/]+", "", address)
    form = client.get(path, follow=True)
    assert form.status_code == 200
    chosen = {"new_password1": "a-long-member-password", "new_password2": "a-long-member-password"}
    done = client.post(form.redirect_chain[-1][0], chosen, follow=True)
    assert "Your password is set" in done.content.decode()
    assert client.get(path, follow=True).context["validlink"] is False  # used once
    signed_in = client.post(
        reverse("admin:login"),
        {
            "username": "ada-lovelace-2",
            "password": "a-long-member-password",
            "next": reverse("admin:index"),
        },
        follow=True,
    )
    assert "<h1>Edit my profile</h1>" in signed_in.content.decode()


def test_a_person_with_a_login_is_refused_another_with_a_sentence(editor_client, django_user_model):
    login = django_user_model.objects.create_user("ada", is_staff=True)
    ada = make_person(name="Ada Lovelace", slug="ada-lovelace", user=login)
    response = editor_client.post(give_login_url(ada), follow=True)
    assert "Ada Lovelace has a login already (“ada”)" in response.content.decode()
    assert django_user_model.objects.count() == 2  # the editor's and Ada's


def test_only_editors_give_logins(client, django_user_model):
    member = django_user_model.objects.create_user("grace", is_staff=True)
    member.groups.add(Group.objects.get(name=MEMBER_LOGINS_GROUP))
    make_person(name="Grace Hopper", slug="grace", user=member)
    ada = make_person(name="Ada Lovelace", slug="ada-lovelace")
    client.force_login(member)
    assert client.post(give_login_url(ada)).status_code == 403
    ada.refresh_from_db()
    assert ada.user is None


def test_a_logins_page_names_the_person_it_belongs_to(editor_client, django_user_model):
    login = django_user_model.objects.create_user("ada", is_staff=True)
    ada = make_person(name="Ada Lovelace", slug="ada-lovelace", user=login)
    person_url = reverse("admin:people_person_change", args=[ada.pk])
    page = editor_client.get(reverse("admin:auth_user_change", args=[login.pk]))
    assert f'<a href="{person_url}">Ada Lovelace</a>' in page.content.decode()
    listed = editor_client.get(reverse("admin:auth_user_changelist"))
    assert "Ada Lovelace" in listed.content.decode()


def test_taking_staff_status_off_a_members_login_is_refused_at_save(
    editor_client, django_user_model
):
    login = django_user_model.objects.create_user("ada", is_staff=True)
    make_person(name="Ada Lovelace", slug="ada-lovelace", user=login)
    page = editor_client.get(reverse("admin:auth_user_change", args=[login.pk]))
    form = page.context["adminform"].form
    data = {
        name: value
        for name, value in form.initial.items()
        if name not in ("password", "last_login", "date_joined", "is_staff") and value is not None
    }
    data["groups"] = [group.pk for group in login.groups.all()]
    data["user_permissions"] = []
    data["date_joined_0"], data["date_joined_1"] = "2026-01-01", "10:00:00"
    response = editor_client.post(reverse("admin:auth_user_change", args=[login.pk]), data)
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert "cannot sign in to edit it" in " ".join(errors["is_staff"])
    login.refresh_from_db()
    assert login.is_staff
