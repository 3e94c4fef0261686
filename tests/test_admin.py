"""Staff do everything through the admin: every page of it must load."""

import pytest
from django.contrib import admin
from django.urls import reverse

from people.models import Person
from publications.models import Publication
from tests.factories import make_person, make_venue

pytestmark = pytest.mark.django_db

MODEL_ADMINS = sorted(
    (model._meta.app_label, model._meta.model_name) for model in admin.site._registry
)


def inline_management(prefix: str, total: int = 0) -> dict[str, str]:
    return {
        f"{prefix}-TOTAL_FORMS": str(total),
        f"{prefix}-INITIAL_FORMS": "0",
        f"{prefix}-MIN_NUM_FORMS": "0",
        f"{prefix}-MAX_NUM_FORMS": "1000",
    }


@pytest.mark.parametrize(("app_label", "model_name"), MODEL_ADMINS)
def test_changelist_add_and_change_pages_load_for_an_editor(
    seeded, editor_client, app_label, model_name
):
    changelist = editor_client.get(reverse(f"admin:{app_label}_{model_name}_changelist"))
    assert changelist.status_code == 200
    assert editor_client.get(reverse(f"admin:{app_label}_{model_name}_add")).status_code == 200
    model = changelist.context["cl"].model
    first = model._default_manager.order_by("pk").first()
    if first is not None:
        change_url = reverse(f"admin:{app_label}_{model_name}_change", args=[first.pk])
        assert editor_client.get(change_url).status_code == 200


def test_project_models_are_all_in_the_admin():
    assert {
        ("people", "person"),
        ("people", "rolegroup"),
        ("publications", "publication"),
        ("publications", "venue"),
        ("news", "newsitem"),
    } <= set(MODEL_ADMINS)


def test_an_anonymous_visitor_is_sent_to_the_login(client):
    response = client.get(reverse("admin:publications_publication_changelist"))
    assert response.status_code == 302
    assert reverse("admin:login") in response["Location"]


def test_person_search_finds_by_alias(editor_client):
    make_person(name="Hang Zhu", aliases="H. Zhu")
    make_person(name="Someone Else")
    response = editor_client.get(reverse("admin:people_person_changelist"), {"q": "H. Zhu"})
    assert [person.name for person in response.context["cl"].result_list] == ["Hang Zhu"]


def test_publication_search_finds_by_author_name(seeded, editor_client):
    response = editor_client.get(
        reverse("admin:publications_publication_changelist"), {"q": "Kostis Kaffes"}
    )
    titles = [publication.title for publication in response.context["cl"].result_list]
    assert len(titles) == 1
    assert titles[0].startswith("RackSched")


def test_adding_a_publication_keeps_author_order_and_links_members_by_name(editor_client):
    member = make_person(name="Hang Zhu")
    venue = make_venue(short_name="NSDI")
    data = {
        "title": "A New Paper",
        "slug": "a-new-paper",
        "venue": venue.pk,
        "year": "2026",
        "type": Publication.Type.CONFERENCE_PAPER,
        "status": Publication.Status.PUBLISHED,
        "is_published": "on",
        **inline_management("authorships", total=2),
        "authorships-0-position": "1",
        "authorships-0-name": "Zhang Zhang",
        "authorships-1-position": "2",
        "authorships-1-name": "Hang Zhu",
        **inline_management("awards"),
        **inline_management("links"),
    }
    response = editor_client.post(reverse("admin:publications_publication_add"), data)
    assert response.status_code == 302, response.context["adminform"].errors
    publication = Publication.objects.get(slug="a-new-paper")
    authors = list(publication.authorships.order_by("position").values_list("name", "person"))
    assert authors == [("Zhang Zhang", None), ("Hang Zhu", member.pk)]


def test_person_autocomplete_for_authorships_finds_members(editor_client):
    make_person(name="Zerui Wang")
    response = editor_client.get(
        reverse("admin:autocomplete"),
        {
            "term": "zerui",
            "app_label": "publications",
            "model_name": "authorship",
            "field_name": "person",
        },
    )
    assert response.status_code == 200
    assert [result["text"] for result in response.json()["results"]] == ["Zerui Wang"]


def test_an_invalid_partial_date_is_a_form_error_not_a_crash(editor_client):
    person = make_person()
    response = editor_client.post(
        reverse("admin:people_person_change", args=[person.pk]),
        {
            "name": person.name,
            "slug": person.slug,
            "is_published": "on",
            **inline_management("links"),
            **inline_management("education", total=1),
            "education-0-position": "1",
            "education-0-institution": "JHU",
            "education-0-start": "sometime in 2017",
            **inline_management("experience"),
            **inline_management("teaching"),
            **inline_management("service"),
            **inline_management("awards"),
        },
    )
    assert response.status_code == 200
    assert "is not a date" in response.content.decode()
    assert not Person.objects.get(pk=person.pk).education.exists()
