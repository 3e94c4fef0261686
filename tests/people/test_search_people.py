"""People are found by what a visitor reads on their card and profile, folded like every other
search (issue 23, items 7 and 9); news and groups fold too."""

import pytest

from people.models import Departure, Education, Experience
from tests.department import make_research_group
from tests.factories import make_news, make_person

pytestmark = pytest.mark.django_db


def people_found(client, words: str) -> set[str]:
    response = client.get("/search/", {"q": words})
    assert response.status_code == 200
    groups = {group.kind: group for group in response.context["groups"]}
    return {person.name for person in groups["people"].first}


def people_by_api(client, words: str) -> set[str]:
    response = client.get("/api/people/", {"q": words})
    assert response.status_code == 200
    return {person["name"] for person in response.json()["results"]}


def test_an_affiliation_finds_a_person(client):
    make_person(name="Ann Lee", affiliations="NVIDIA Research")
    make_person(name="Bo Zhao")
    assert people_found(client, "NVIDIA") == {"Ann Lee"}
    assert people_by_api(client, "nvidia") == {"Ann Lee"}


def test_a_position_and_an_education_institution_find_a_person(client):
    make_person(name="Ann Lee", position_title="Postdoctoral Researcher")
    alumnus = make_person(name="Bo Zhao")
    Education.objects.create(person=alumnus, degree="B.E.", institution="Tsinghua University")
    employee = make_person(name="Cy Park")
    Experience.objects.create(person=employee, title="Intern", organization="Microsoft")
    assert people_found(client, "postdoctoral") == {"Ann Lee"}
    assert people_found(client, "Tsinghua") == {"Bo Zhao"}
    assert people_found(client, "microsoft") == {"Cy Park"}
    alumna = make_person(name="Di Wu")
    Departure.objects.create(person=alumna, last_role="Student", next_position="ETH Zürich")
    assert people_found(client, "zurich") == {"Di Wu"}  # her card: "Now at ETH Zürich"


def test_a_research_interest_phrase_finds_a_person(client):
    make_person(name="Ann Lee", research_interests="Load balancing\nNetworks")
    make_person(name="Bo Zhao", research_interests="Balancing the load")
    assert people_found(client, '"load balancing"') == {"Ann Lee"}


@pytest.mark.parametrize("words", ["nunez", "NÚÑEZ"])
def test_an_accented_name_is_found_folded(client, words):
    make_person(name="José Núñez")
    assert people_found(client, words) == {"José Núñez"}


def test_news_is_found_folded(client):
    make_news(title="Über prize", body="The café team won.")
    response = client.get("/news/", {"q": "uber cafe"})
    assert response.status_code == 200
    assert [item.title for item in response.context["page"].object_list] == ["Über prize"]


def test_a_research_group_is_found_folded(client):
    make_research_group(name="Zürich Systems", short_description="Réseaux et caches.")
    make_research_group(name="Networks")
    response = client.get("/search/", {"q": "zurich reseaux"})
    groups = {group.kind: group for group in response.context["groups"]}
    assert [group.name for group in groups["groups"].first] == ["Zürich Systems"]
