"""Detail pages: a fixed number of queries whatever the authors, and drafts shown to staff only."""

import pytest
from django.test import Client

from directory.partial_dates import PartialDate
from publications.models import PublicationAward
from tests.factories import count_queries, make_news, make_person, make_publication

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("rows", [5, 200])
def test_publication_page_runs_a_fixed_number_of_queries(client, rows):
    """The publication with its prefetches, its members' other papers with theirs, its news,
    the lab: none per author or related paper. (The citation key is stored on the row now.)"""
    members = [make_person() for _ in range(3)]
    publication = make_publication(authors=[*members, *[f"Author {n}" for n in range(rows)]])
    PublicationAward.objects.create(publication=publication, position=1, name="Best Paper")
    for number in range(rows):
        make_publication(authors=[members[number % 3]])
        make_news().publications.add(publication)
    assert count_queries(client, publication.get_absolute_url()) == 10


@pytest.mark.parametrize("rows", [5, 200])
def test_news_page_runs_a_fixed_number_of_queries(client, rows):
    """The item with its people, its publications with their prefetches, the lab. (The
    citation keys are stored on the rows.)"""
    item = make_news(date=PartialDate(2026, 7))
    item.people.add(*[make_person() for _ in range(rows)])
    item.publications.add(*[make_publication(authors=["A", "B"]) for _ in range(rows)])
    assert count_queries(client, item.get_absolute_url()) == 7


@pytest.mark.parametrize(
    "make_draft",
    [
        lambda: make_person(slug="draft", is_published=False),
        lambda: make_publication(slug="draft", is_published=False),
        lambda: make_news(slug="draft", is_published=False),
    ],
    ids=["person", "publication", "news"],
)
def test_drafts_are_a_404_for_visitors_and_a_marked_preview_for_staff(editor_client, make_draft):
    draft = make_draft()
    url = draft.get_absolute_url()
    assert Client().get(url).status_code == 404
    preview = editor_client.get(url)
    assert preview.status_code == 200
    assert "Only staff see this page" in preview.content.decode()
