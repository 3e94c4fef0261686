"""Directory and profile behaviour on rows each test makes: drafts, alumni, co-authors, queries."""

import pytest

from people.avatars import initials_of
from people.models import Education, Experience, Person
from tests.factories import (
    count_queries,
    make_group,
    make_news,
    make_person,
    make_publication,
)

pytestmark = pytest.mark.django_db


def test_alumni_are_listed_apart_after_current_members(client):
    alumni = make_group(name="Alumni", is_alumni=True)
    faculty = make_group(name="Faculty")
    make_person(name="Former Student", role_group=alumni)
    make_person(name="Professor", role_group=faculty)
    response = client.get("/people/")
    assert [p.name for p in response.context["current"]] == ["Professor"]
    assert [p.name for p in response.context["alumni"]] == ["Former Student"]


def test_drafts_are_hidden_from_the_directory_and_their_profile(client):
    make_person(name="Draft Person", slug="draft", is_published=False)
    assert "Draft Person" not in client.get("/people/").content.decode()
    assert client.get("/people/draft/").status_code == 404


def test_profile_lists_lab_coauthors_with_shared_paper_counts(client):
    ada = make_person(name="Ada Lovelace", slug="ada")
    grace = make_person(name="Grace Hopper", slug="grace")
    make_publication(authors=[ada, grace])
    make_publication(authors=[grace, "Outsider", ada])
    make_publication(authors=[ada])
    response = client.get("/people/ada/")
    assert [(p.name, p.shared) for p in response.context["coauthors"]] == [("Grace Hopper", 2)]


def test_bio_markdown_is_rendered_and_sanitized(client):
    make_person(
        slug="x",
        bio='**Bold** <script>alert(1)</script> [bad](javascript:alert(1)) <img src=x onerror="alert(1)">',
    )
    html = client.get("/people/x/").content.decode()
    assert "<strong>Bold</strong>" in html
    assert "<script>alert" not in html
    assert "javascript:" not in html
    assert "onerror" not in html


@pytest.mark.parametrize(
    ("name", "initials"), [("Hang Zhu", "HZ"), ("Plato", "P"), ("Wei-Ying Ma", "WM"), ("", "?")]
)
def test_initials_are_the_first_and_last_names_first_letters(name, initials):
    assert initials_of(name) == initials


def make_people(count: int) -> Person:
    group = make_group()
    people = [make_person(role_group=group, research_interests="Systems") for _ in range(count)]
    subject = people[0]
    for number in range(count):
        make_publication(authors=[subject, people[number % count], "Outside"])
        Education.objects.create(person=subject, position=number, institution=f"U{number}")
        Experience.objects.create(person=subject, position=number, title="T", organization="O")
        make_news().people.add(subject)
    return subject


@pytest.mark.parametrize("rows", [5, 200])
def test_directory_runs_a_fixed_number_of_queries(client, rows):
    """lab, group choices, people with their groups, their links: no query per card."""
    make_people(rows)
    assert count_queries(client, "/people/") == 4
    assert count_queries(client, "/people/?q=person&group=group-1") == 4


@pytest.mark.parametrize("rows", [5, 200])
def test_profile_runs_a_fixed_number_of_queries(client, rows):
    """lab, person with group, six CV prefetches, the selection with its three prefetches,
    the count per year (the chart and the total), co-authors, news: no query per publication,
    author or entry. (The citation keys are stored on the rows.)"""
    subject = make_people(rows)
    assert count_queries(client, subject.get_absolute_url()) == 15


def test_profile_shows_a_selection_and_links_to_all(client):
    subject = make_people(60)
    response = client.get(subject.get_absolute_url())
    assert len(response.context["publications"]) == 8
    assert response.context["publication_count"] == 60
    assert (
        f'?author={subject.slug}">All 60 publications of {subject.name}</a>'
        in response.content.decode()
    )
