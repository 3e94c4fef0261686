"""Stage 3 of the researcher identity (issue 25): an author row names its human, a member or
an outsider, by one key to the researcher, and both are found the same way."""

import pytest
from django.urls import reverse

from people.models import ExternalPerson, Person, Researcher
from publications.models import Authorship, Publication
from tests.department import make_external
from tests.factories import make_person, make_publication, make_staff_login

pytestmark = pytest.mark.django_db


def test_an_author_row_has_one_key_to_the_researcher_and_no_member_or_outsider_key():
    names = {field.name for field in Authorship._meta.get_fields()}
    assert {"person", "external"}.isdisjoint(names)
    assert Authorship._meta.get_field("researcher").related_model is Researcher


def test_a_members_and_an_outsiders_rows_are_found_by_the_same_reverse_name_and_queryset():
    member = make_person(name="Ada Member")
    paper = make_publication(authors=[member, "Xin Outside"])
    outsider = make_external(name="Xin Outside")  # claims the row printed with its name
    assert [row.name for row in member.authorships.all()] == ["Ada Member"]
    assert [row.name for row in outsider.authorships.all()] == ["Xin Outside"]
    assert list(Authorship.objects.by(outsider).values_list("position", flat=True)) == [2]
    assert list(Publication.objects.authored_by(member)) == [paper]
    first, second = paper.authorships.select_related("researcher__profile").order_by("position")
    assert (first.person, first.external) == (member, None)
    assert (second.person, second.external) == (None, outsider)


def test_the_admins_one_author_picker_finds_members_and_outsiders_alike(client):
    make_person(name="Xin Member")
    make_external(name="Xin Outside")
    client.force_login(make_staff_login("editor", role="Editors"))
    query = {"app_label": "publications", "model_name": "authorship", "field_name": "researcher"}
    response = client.get(reverse("admin:autocomplete"), {"term": "xin", **query})
    assert response.status_code == 200
    assert sorted(row["text"] for row in response.json()["results"]) == [
        "Xin Member",
        "Xin Outside",
    ]


def test_the_researcher_link_of_an_author_row_opens_the_profile_or_the_record(client):
    member, outsider = make_person(), make_external()
    client.force_login(make_staff_login("editor", role="Editors"))
    for who, page in ((member, Person), (outsider, ExternalPerson)):
        response = client.get(reverse("admin:people_researcher_change", args=[who.pk]))
        name = page._meta.model_name
        assert response.url == reverse(f"admin:people_{name}_change", args=[who.pk])
