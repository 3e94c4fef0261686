"""Words search titles and author names, on SQLite by substring and on PostgreSQL by
full-text search of titles. CI runs this module on both databases."""

import pytest
from django.db import connection

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("seeded")]


def titles(client, words: str) -> set[str]:
    response = client.get("/publications/", {"q": words})
    return {publication.slug for publication in response.context["page"].object_list}


def test_a_word_of_an_author_name_finds_their_papers(client):
    assert titles(client, "Kaffes") == {"racksched"}
    assert titles(client, "Sonchack") == {"beaver"}


def test_all_words_must_match_title_or_authors(client):
    assert titles(client, "serverless Cardoza") == {
        "fault-tolerant-and-transactional-stateful-serverless"
    }
    assert titles(client, "serverless Kaffes") == set()


def test_titles_match_by_stem_on_postgresql_and_by_substring_elsewhere(client):
    found = titles(client, "caching")
    if connection.vendor == "postgresql":
        # "caching" and "Cache" share the stem "cach".
        assert found == {"mucache", "causalmesh"}
    else:
        assert found == {"mucache"}


def test_search_uses_the_title_index_on_postgresql(client):
    """The GIN index exists where full-text search runs, and nowhere else."""
    with connection.cursor() as cursor:
        indexes = connection.introspection.get_constraints(cursor, "publications_publication")
    assert ("publication_title_search" in indexes) == (connection.vendor == "postgresql")


def test_a_stop_word_still_matches_titles_on_every_database(client):
    assert "oneflow" in titles(client, "from")  # "...Framework from Scratch"
