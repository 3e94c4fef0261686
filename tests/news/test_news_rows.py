import pytest

from directory.partial_dates import PartialDate
from tests.factories import (
    count_queries,
    make_news,
    make_person,
    make_publication,
)

pytestmark = pytest.mark.django_db


def test_drafts_are_hidden_from_the_list_and_their_page(client):
    make_news(title="Shown")
    make_news(title="Draft", slug="draft", is_published=False)
    assert [item.title for item in client.get("/news/").context["page"].object_list] == ["Shown"]
    assert client.get("/news/draft/").status_code == 404


def test_news_is_paginated_and_a_missing_page_is_a_404(client):
    for day in range(1, 26):
        make_news(date=PartialDate(2026, 1, day))
    assert len(client.get("/news/").context["page"].object_list) == 20
    assert len(client.get("/news/?page=2").context["page"].object_list) == 5
    assert client.get("/news/?page=3").status_code == 404


@pytest.mark.parametrize("rows", [5, 200])
def test_news_list_runs_a_fixed_number_of_queries(client, rows):
    """lab, year choices, person choices, count, page, people, papers: no query per item."""
    people = [make_person() for _ in range(3)]
    for number in range(rows):
        make_news(date=PartialDate(2000 + number % 25)).people.add(*people)
    assert count_queries(client, "/news/") == 7


@pytest.mark.parametrize("rows", [5, 200])
def test_home_runs_a_fixed_number_of_queries(client, rows):
    """lab, news + people + papers, featured and recent publications with their prefetches,
    people with their links. (The citation keys are stored on the rows.)"""
    member = make_person()
    for number in range(rows):
        make_news().people.add(member)
        make_publication(authors=[member, "Other"], is_featured=number % 2 == 0)
    assert count_queries(client, "/") == 14
