"""Feeds built from rows made here: only published rows, in a fixed number of queries."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import make_news, make_person, make_publication

pytestmark = pytest.mark.django_db


def test_drafts_are_in_no_feed(client):
    make_news(title="Public news")
    make_news(title="Draft news", is_published=False)
    make_publication(title="Public paper")
    make_publication(title="Draft paper", is_published=False)
    news = client.get("/news/feed/").content.decode()
    papers = client.get("/publications/feed/").content.decode()
    assert "Public news" in news and "Draft news" not in news
    assert "Public paper" in papers and "Draft paper" not in papers


@pytest.mark.parametrize("rows", [5, 60])
def test_the_publication_feed_runs_a_fixed_number_of_queries(client, rows):
    """lab, venue choices, member choices, rows, authorships+people, awards, links."""
    members = [make_person(), make_person()]
    for number in range(rows):
        make_publication(title=f"Paper {number}", authors=[members[number % 2], "Outsider"])
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/publications/feed/").status_code == 200
    assert len(queries) == 7
