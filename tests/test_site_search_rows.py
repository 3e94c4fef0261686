"""The site search runs a fixed number of queries whatever the number of rows it finds."""

import pytest

from tests.factories import count_queries, make_news, make_person, make_publication

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("rows", [5, 200])
def test_search_runs_a_fixed_number_of_queries(client, rows):
    """lab; people: count, rows, links; publications: count, rows and their three prefetches;
    news: count, rows, people, papers."""
    for number in range(rows):
        member = make_person(name=f"Widget Person {number}")
        make_publication(title=f"Widget paper {number}", authors=[member, "Outside"])
        make_news(title=f"Widget news {number}").people.add(member)
    assert count_queries(client, "/search/?q=widget") == 13
