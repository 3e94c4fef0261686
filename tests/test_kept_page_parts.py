"""Rows that the home page and the news list read from a large part of a table, kept until the
next change (directory.site_cache.cached): the home page's featured and recent papers, and the
news filter's years and people.

These tests commit for real (transaction=True): the change stamp moves when a transaction
commits, as on a live site. The page cache is off so that every request renders its page.
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from directory.models import Lab
from publications.models import Publication
from tests.factories import make_news, make_person, make_publication

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _no_page_cache(settings):
    settings.SITE_CACHE = False
    Lab.objects.current()


def featured_queries(queries: CaptureQueriesContext) -> list[str]:
    """The queries that choose papers by whether they are featured."""
    return [q["sql"] for q in queries if "is_featured" in q["sql"].partition(" WHERE ")[2]]


def test_the_home_pages_papers_are_found_once_until_the_next_change(client):
    make_publication(title="Klotski", year=2023)
    with CaptureQueriesContext(connection) as first:
        client.get("/")
    with CaptureQueriesContext(connection) as again:
        page = client.get("/").text
    assert len(featured_queries(first)) == 2  # the featured papers, then the others
    assert featured_queries(again) == []
    assert "Featured publications" not in page and ">Klotski</a>" in page

    paper = Publication.objects.get(title="Klotski")
    paper.is_featured = True
    paper.save()  # commits: the stamp moves
    page = client.get("/").text
    assert "Featured publications" in page
    assert page.index(">Klotski</a>") > page.index("Featured publications")


def news_about(person_name: str, slug: str, date: str):
    make_news(title=f"News of {person_name}", date=date).people.add(
        make_person(name=person_name, slug=slug)
    )


def test_the_news_filters_choices_follow_the_news(client):
    news_about("Hang Zhu", "hang-zhu", "2025-03")
    page = client.get("/news/").text
    assert '<option value="2025">2025</option>' in page
    assert '<option value="hang-zhu">Hang Zhu</option>' in page
    assert "2024" not in page

    news_about("Bo Zhao", "bo-zhao", "2024-11")  # commits: the stamp moves
    page = client.get("/news/").text
    assert '<option value="2024">2024</option>' in page
    assert '<option value="bo-zhao">Bo Zhao</option>' in page
    with CaptureQueriesContext(connection) as again:
        client.get("/news/")
    assert not [q for q in again if "DISTINCT" in q["sql"]]
