"""The index a search reads first (SQLite's FTS5 table, PostgreSQL's trigrams) never hides a
paper the word-start patterns find, and follows every write."""

import pytest
from django.db import connection

from base.text import search_terms, word_start
from publications.filters import search_publications
from publications.models import Authorship, Publication
from publications.search import FULL_TEXT_TABLE, FULL_TEXT_TRIGGERS
from tests.factories import make_publication

pytestmark = pytest.mark.django_db

TITLES_AND_AUTHORS = [
    ("Klotski: Efficient Memory (NSDI)", ["Hang Zhu", "Wei-Ying Ma"]),
    ("I/O Scheduling for C++ Programs", ["O'Brien Kelly", "Zhang Zhang"]),
    ('The "Quoted" Word and e.g. Abbreviations', ["José García", "Zoë Ng"]),
    ("Hangzhou Caching_Layer 2-Phase Commit", ["Ann Lee"]),
]
WORDS = [
    "hang", "HANG", "zhu", "zhang", "ma", "wei-ying", "ying", "nsdi", "(nsdi", "nsdi)", "i/o",
    "o", "c++", "o'brien", "brien", "kelly", '"quoted"', "quoted", "e.g", "e.g.", "g", "jos",
    "josé", "garcia", "zoë", "caching_layer", "layer", "2-phase", "phase", "-phase", "--", "(",
    "klotski:", "efficient memory", "mem", "emory", "ang",
]  # fmt: skip


def by_patterns_alone(word: str) -> set[str]:
    """The word read as the search reads it: folded, its quotes marking a phrase."""
    queryset = Publication.objects.all()
    for term in search_terms(word):
        queryset = queryset.filter(word_start("search_text", term))
    return set(queryset.values_list("title", flat=True))


def found(words: str) -> set[str]:
    queryset = search_publications(Publication.objects.all(), "q", words)
    return set(queryset.values_list("title", flat=True))


@pytest.mark.parametrize("word", WORDS)
def test_the_index_never_hides_a_paper_the_patterns_find(word):
    for title, authors in TITLES_AND_AUTHORS:
        make_publication(title=title, authors=authors)
    expected = by_patterns_alone(word)
    # On PostgreSQL stems may find more; never fewer.
    assert found(word) >= expected
    if connection.vendor == "sqlite":
        assert found(word) == expected


def test_the_index_follows_new_renamed_and_deleted_papers_and_authors():
    paper = make_publication(title="Klotski", authors=["Hang Zhu"])
    assert found("klotski") == {"Klotski"}
    paper.title = "Ring Buffers"
    paper.save()
    assert found("klotski") == set() and found("ring") == {"Ring Buffers"}

    author = Authorship.objects.get(publication=paper)
    author.name = "Bo Zhao"
    author.save()
    assert found("zhu") == set() and found("zhao") == {"Ring Buffers"}

    # A write no signal sees (a bulk update) reaches the index too.
    Publication.objects.filter(pk=paper.pk).update(search_text="Ring Buffers\nAnn Lee")
    assert found("zhao") == set() and found("ring lee") == {"Ring Buffers"}

    paper.delete()
    assert found("ring") == set() and found("lee") == set()


def test_the_search_index_exists_after_every_migration():
    """A migration that makes SQLite rebuild the publications table drops the FTS5 triggers:
    it must call publications.search.create_full_text_index after, as 0012 does."""
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'trigger')")
            names = {row[0] for row in cursor.fetchall()}
            assert {FULL_TEXT_TABLE, *FULL_TEXT_TRIGGERS} <= names
        else:
            cursor.execute(
                "SELECT indexname FROM pg_indexes WHERE tablename = %s",
                ["publications_publication"],
            )
            assert "publication_search_trgm" in {row[0] for row in cursor.fetchall()}
