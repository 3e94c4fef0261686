"""The API's lists are the HTML lists: page for page, under several filters, the same rows in
the same order and the same counts, on rows made to be hard to tell apart (one year, one
title, slugs that sort against the order they were made in), so only a shared tie-break keeps
page 2 of one equal to page 2 of the other."""

import pytest

from publications.models import PublicationAward
from tests.api.lists import facet_counts_of_the_api, facet_counts_of_the_page
from tests.factories import make_news, make_person, make_publication, make_venue
from tests.shared_rows import shared_rows

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="class")
def papers(django_db_setup, django_db_blocker):
    """130 papers, 3 pages of 50: most share a year and a title, over two venues and two
    members; every fifth has an award. Made once for the class's tests, which only read
    them, and rolled back after its last (making them took 10 s or more a test)."""
    with shared_rows(django_db_blocker):
        make_papers()
        yield


def make_papers() -> None:
    members = [make_person(slug="ada", name="Ada"), make_person(slug="bo", name="Bo")]
    venues = [make_venue(short_name="NSDI"), make_venue(short_name="OSDI")]
    for number in range(130):
        paper = make_publication(
            # Made from z to a: a list that fell back on the order rows were stored in
            # would disagree with one that breaks the tie by slug.
            slug=f"tie-{129 - number:03d}",
            title="Same Title" if number % 10 else f"Learning {number}",
            year=2024 if number % 3 else 2023,
            venue=venues[number % 2],
            type="journal-article" if number % 4 == 0 else "conference-paper",
            authors=[members[number % 2], "Outside Author"],
        )
        if number % 5 == 0:
            PublicationAward.objects.create(publication=paper, position=1, name="Best Paper")


def every_page(client, url: str) -> list:
    """The pages of an HTML list, followed to the last."""
    pages, number = [], 1
    while True:
        response = client.get(f"{url}&page={number}")
        assert response.status_code == 200
        pages.append(response)
        if not response.context["page"].has_next():
            return pages
        number += 1


@pytest.mark.usefixtures("papers")
class TestLookalikePapers:
    @pytest.mark.parametrize(
        "query",
        [
            "",
            "venue=NSDI&year=2024",
            "author=ada&type=conference-paper",
            "q=same&year_min=2023&year_max=2024",
            "venue=NSDI&venue=OSDI&award=1",
            "author=ada&author=bo&authors=all",
        ],
    )
    def test_every_page_of_the_api_holds_the_papers_and_counts_of_that_page_of_the_list(
        self, client, query
    ):
        pages = every_page(client, f"/publications/?{query}")
        data = client.get(f"/api/publications/?{query}").json()
        assert data["pages"] == len(pages)
        for page in pages:
            assert data["page"] == page.context["page"].number
            assert [paper["slug"] for paper in data["results"]] == [
                paper.slug for paper in page.context["page"].object_list
            ]
            assert data["count"] == page.context["page"].paginator.count
            assert facet_counts_of_the_api(data) == facet_counts_of_the_page(page)
            data = client.get(data["next"]).json() if data["next"] else None
        assert data is None

    def test_the_filters_above_narrow_the_list_to_what_they_say(self, client):
        """The cases above are not all "everything" or "nothing"."""
        counts = {
            query: client.get(f"/api/publications/?{query}").json()["count"]
            for query in ["", "venue=NSDI&year=2024", "author=ada&author=bo&authors=all"]
        }
        assert counts == {
            "": 130,
            "venue=NSDI&year=2024": 43,
            "author=ada&author=bo&authors=all": 0,
        }


@pytest.mark.parametrize("query", ["", "person=ada", "year=2026&q=news"])
def test_every_page_of_the_news_api_holds_the_items_of_that_page_of_the_news_list(client, query):
    ada = make_person(slug="ada", name="Ada")
    for number in range(45):
        item = make_news(slug=f"news-{44 - number:02d}", title="Same news", date="2026-07")
        if number % 2:
            item.people.add(ada)
    pages = every_page(client, f"/news/?{query}")
    data = client.get(f"/api/news/?{query}").json()
    assert data["pages"] == len(pages)
    for page in pages:
        assert [item["slug"] for item in data["results"]] == [
            item.slug for item in page.context["page"].object_list
        ]
        assert data["count"] == page.context["page"].paginator.count
        data = client.get(data["next"]).json() if data["next"] else None
    assert data is None
