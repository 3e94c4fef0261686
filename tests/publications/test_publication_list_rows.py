"""The publication list built from rows made here: pagination, drafts, query counts."""

import pytest

from people.models import Person
from publications.models import Venue
from tests.factories import (
    count_queries,
    make_publication,
    make_publication_rows,
    make_venue,
)

pytestmark = pytest.mark.django_db

URL = "/publications/"


def titles(response) -> list[str]:
    return [publication.title for publication in response.context["page"].object_list]


def test_pages_keep_the_filters_in_their_links(client):
    venue = make_venue(short_name="NSDI")
    for number in range(60):
        make_publication(title=f"Paper {number:02d}", venue=venue)
    response = client.get(URL, {"venue": "NSDI"})
    assert len(response.context["page"].object_list) == 50
    assert 'href="?venue=NSDI&amp;page=2"' in response.content.decode()
    assert len(client.get(URL, {"venue": "NSDI", "page": "2"}).context["page"].object_list) == 10


def test_drafts_are_not_listed(client):
    make_publication(title="Shown")
    make_publication(title="Draft", is_published=False)
    assert titles(client.get(URL)) == ["Shown"]


@pytest.mark.parametrize("rows", [5, 200])
def test_list_runs_a_fixed_number_of_queries(client, rows):
    """Facets are aggregates and authors are prefetched: no query per publication or author.

    lab, venue choices, member choices, count, page rows, authorships+people, awards, links,
    one aggregate per facet (venue, year and chart, type, member) and the award count. The
    citation keys are stored on the rows.
    """
    make_publication_rows(rows)
    assert count_queries(client, URL) == 13
    first, second = Person.objects.values_list("slug", flat=True)[:2]
    venue = Venue.objects.values_list("short_name", flat=True).first()
    filtered = f"{URL}?venue={venue}&year_min=2003&author={first}&author={second}&q=paper"
    response = client.get(filtered)
    assert response.context["ignored"] == [] and len(response.context["page"].object_list) > 0
    assert count_queries(client, filtered) == 13
