"""Editing through the admin, on rows each test makes."""

import pytest
from django.urls import reverse

from people.models import Person
from publications.models import Publication
from tests.admin_forms import inline_management, post_person
from tests.factories import make_person, make_venue

pytestmark = pytest.mark.django_db


def test_an_anonymous_visitor_is_sent_to_the_login(client):
    response = client.get(reverse("admin:publications_publication_changelist"))
    assert response.status_code == 302
    assert reverse("admin:login") in response["Location"]


def test_person_search_finds_by_alias(editor_client):
    make_person(name="Hang Zhu", aliases="H. Zhu")
    make_person(name="Someone Else")
    response = editor_client.get(reverse("admin:people_person_changelist"), {"q": "H. Zhu"})
    assert [person.name for person in response.context["cl"].result_list] == ["Hang Zhu"]


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
    response = post_person(
        editor_client,
        person,
        **inline_management("education", total=1),
        **{
            "education-0-position": "1",
            "education-0-institution": "JHU",
            "education-0-start": "sometime in 2017",
        },
    )
    assert response.status_code == 200
    assert "is not a date" in response.content.decode()
    assert not Person.objects.get(pk=person.pk).education.exists()


def test_staff_save_dates_at_every_precision_in_news_and_cv_rows(editor_client):
    from news.models import NewsItem

    response = editor_client.post(
        reverse("admin:news_newsitem_add"),
        {
            "title": "Joined",
            "slug": "joined",
            "date": "May 2026",
            "kind": "news",
            "is_published": "on",
        },
    )
    assert response.status_code == 302, response.context["adminform"].errors
    assert str(NewsItem.objects.get(slug="joined").date) == "May 2026"

    person = make_person()
    response = post_person(
        editor_client,
        person,
        **inline_management("education", total=1),
        **{
            "education-0-position": "1",
            "education-0-institution": "SJTU",
            "education-0-start": "2023-09",
            "education-0-is_current": "on",
        },
        **inline_management("awards", total=1),
        **{"awards-0-position": "1", "awards-0-title": "Award", "awards-0-date": "25 Jul 2026"},
    )
    assert response.status_code == 302, response.context["errors"]
    assert person.education.get().period == "Sep 2023 – Present"
    assert str(person.awards.get().date) == "25 Jul 2026"
