"""Words search titles and author names, on SQLite by substring and on PostgreSQL by
full-text search of titles. CI runs this module on both databases."""

from django.db import connection

from tests.cases import SeededTestCase


def titles(client, words: str) -> set[str]:
    response = client.get("/publications/", {"q": words})
    return {publication.slug for publication in response.context["page"].object_list}


class SeededSearchTests(SeededTestCase):
    def test_a_word_of_an_author_name_finds_their_papers(self):
        assert titles(self.client, "Kaffes") == {"racksched"}
        assert titles(self.client, "Sonchack") == {"beaver"}

    def test_all_words_must_match_title_or_authors(self):
        assert titles(self.client, "serverless Cardoza") == {
            "fault-tolerant-and-transactional-stateful-serverless"
        }
        assert titles(self.client, "serverless Kaffes") == set()

    def test_titles_match_by_stem_on_postgresql_and_by_substring_elsewhere(self):
        found = titles(self.client, "caching")
        if connection.vendor == "postgresql":
            # "caching" and "Cache" share the stem "cach".
            assert found == {"mucache", "causalmesh"}
        else:
            assert found == {"mucache"}

    def test_search_uses_the_title_index_on_postgresql(self):
        """The GIN index exists where full-text search runs, and nowhere else."""
        with connection.cursor() as cursor:
            indexes = connection.introspection.get_constraints(cursor, "publications_publication")
        assert ("publication_title_search" in indexes) == (connection.vendor == "postgresql")

    def test_a_stop_word_still_matches_titles_on_every_database(self):
        assert "oneflow" in titles(self.client, "from")  # "...Framework from Scratch"
