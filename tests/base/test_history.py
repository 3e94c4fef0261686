"""Every admin change is kept with who and when, shown with its differences, revertible;
deleted objects are recoverable with the inline rows deleted with them."""

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse

from people.models import Education, Person
from publications.models import Publication
from tests.admin_forms import post_person
from tests.factories import make_person, make_publication

pytestmark = pytest.mark.django_db


def form_data(form) -> dict:
    """What a browser would post back for an unchanged admin form."""
    data = {}
    for name, field in form.fields.items():
        value = form.initial.get(name, field.initial)
        value = field.prepare_value(value) if hasattr(field, "prepare_value") else value
        if value is None or value is False or name in {"photo"}:
            continue
        data[name] = "on" if value is True else value
    return data


def history_url(obj) -> str:
    return reverse(f"admin:{obj._meta.app_label}_{obj._meta.model_name}_history", args=[obj.pk])


def version_url(obj, version) -> str:
    name = f"admin:{obj._meta.app_label}_{obj._meta.model_name}_simple_history"
    return reverse(name, args=[obj.pk, version.history_id])


def test_an_admin_change_is_recorded_with_its_author_and_differences(editor_client, editor):
    person = make_person(name="Hang Zhu", position_title="PhD Student")
    response = post_person(editor_client, person, position_title="Research Scientist")
    assert response.status_code == 302

    latest = person.history.latest()
    assert latest.history_user == editor
    assert latest.position_title == "Research Scientist"
    page = editor_client.get(history_url(person)).content.decode()
    assert "PhD Student" in page and "Research Scientist" in page  # old and new value


def test_reverting_restores_an_earlier_version(editor_client):
    person = make_person(name="Hang Zhu", position_title="PhD Student")
    post_person(editor_client, person, position_title="Research Scientist")
    first = person.history.earliest()

    form = editor_client.get(version_url(person, first)).context["adminform"].form
    assert form.initial["position_title"] == "PhD Student"
    response = editor_client.post(version_url(person, first), form_data(form))
    assert response.status_code == 302
    person.refresh_from_db()
    assert person.position_title == "PhD Student"


def test_a_deleted_publication_is_recovered_with_its_authors_in_order(editor_client):
    member = make_person(name="Hang Zhu")
    publication = make_publication(
        title="NetVRM", slug="netvrm", authors=[member, "Tao Wang", "Xin Jin"]
    )
    delete = reverse("admin:publications_publication_delete", args=[publication.pk])
    assert editor_client.post(delete, {"post": "yes"}).status_code == 302
    assert not Publication.objects.filter(slug="netvrm").exists()

    listing = editor_client.get(reverse("admin:publications_publication_deleted"))
    assert "NetVRM" in listing.content.decode()
    (row,) = listing.context["rows"]
    form = editor_client.get(row["url"]).context["adminform"].form
    assert editor_client.post(row["url"], form_data(form)).status_code == 302

    restored = Publication.objects.get(slug="netvrm")
    authors = list(
        restored.authorships.order_by("position").values_list("name", "researcher__profile")
    )
    assert authors == [("Hang Zhu", member.pk), ("Tao Wang", None), ("Xin Jin", None)]


def test_a_deleted_person_is_recovered_with_cv_entries_and_author_links(editor_client):
    person = make_person(name="Zerui Wang", slug="zerui-wang")
    Education.objects.create(person=person, position=1, institution="SJTU", start="2023-09")
    publication = make_publication(authors=[person])
    delete = reverse("admin:people_person_delete", args=[person.pk])
    assert editor_client.post(delete, {"post": "yes"}).status_code == 302
    assert publication.authorships.get().person is None

    (row,) = editor_client.get(reverse("admin:people_person_deleted")).context["rows"]
    form = editor_client.get(row["url"]).context["adminform"].form
    assert editor_client.post(row["url"], form_data(form)).status_code == 302

    restored = Person.objects.get(slug="zerui-wang")
    assert [entry.institution for entry in restored.education.all()] == ["SJTU"]
    assert publication.authorships.get().person == restored


def test_a_member_cannot_see_or_revert_another_members_history(client, django_user_model):
    login = django_user_model.objects.create_user("ada", password="pw", is_staff=True)
    login.groups.add(Group.objects.get(name="Member logins"))
    make_person(name="Ada", slug="ada", user=login)
    other = make_person(name="Grace", slug="grace")
    client.force_login(login)
    assert client.get(history_url(other)).status_code == 403
    version = other.history.latest()
    assert client.get(version_url(other, version)).status_code == 403
    assert (
        client.post(version_url(other, version), {"name": "Hijacked", "slug": "grace"}).status_code
        == 403
    )
    assert client.get(reverse("admin:people_person_deleted")).status_code == 403
