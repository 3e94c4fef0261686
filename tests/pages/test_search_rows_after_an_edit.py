"""A search's first page after a paper's title is edited is brought up to date from that
paper (pages/views/publications.py `search_rows_updated`): the papers it kept and the one
edited, read by key and sorted by the database, not every match sorted anew (28,000 for a
common word at 200,000 papers). A paper edited into the matches, out of them, or to another
place in their order shows so on the next request.

These tests commit for real (transaction=True): the change stamp moves when a transaction
commits, as on a live site."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from base.models import Lab
from tests.factories import make_person, make_publication

pytestmark = pytest.mark.django_db(transaction=True)

SEARCH = "/publications/?q=caching"


def titles(page: str) -> list[str]:
    return re.findall(r'class="publication__title"><a href="[^"]+"[^>]*>([^<]+)</a>', page)


def retitle(paper, title: str) -> None:
    paper.refresh_from_db()
    paper.title = title
    paper.save()


def get_rows_queries(client) -> tuple[list[str], list[str]]:
    """The search's titles in order, and the queries that listed its rows."""
    with CaptureQueriesContext(connection) as queries:
        page = client.get(SEARCH).text
    rows = [
        q["sql"] for q in queries if '"slug" AS "slug"' in q["sql"] and "search_text" in q["sql"]
    ]
    return titles(page), rows


def test_a_searchs_rows_follow_a_title_edit_without_sorting_every_match(client):
    Lab.objects.current()  # made by the first page otherwise: a write between the requests
    hang = make_person(name="Hang Zhu", slug="hang-zhu")
    make_publication(title="Caching at scale", year=2024, authors=[hang])
    make_publication(title="Caching for all", year=2022, authors=[hang])
    ring = make_publication(title="Ring", year=2023, authors=[hang])
    older = make_publication(title="Caching in 2019", year=2019, authors=[hang])
    assert get_rows_queries(client)[0] == ["Caching at scale", "Caching for all", "Caching in 2019"]

    retitle(ring, "Caching rings")
    shown, rows = get_rows_queries(client)
    assert shown == ["Caching at scale", "Caching rings", "Caching for all", "Caching in 2019"]
    # Read by key: no query sorted the matches to take the first of them.
    assert rows and not [sql for sql in rows if "LIMIT" in sql]

    retitle(older, "Storage in 2019")
    assert get_rows_queries(client)[0] == ["Caching at scale", "Caching rings", "Caching for all"]

    ring.refresh_from_db()
    ring.year = 2025
    ring.save()
    assert get_rows_queries(client)[0] == ["Caching rings", "Caching at scale", "Caching for all"]
