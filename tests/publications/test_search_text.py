"""The search text stored on each paper follows its title and authors."""

import pytest

from publications.models import Authorship, Publication
from tests.factories import make_publication

pytestmark = pytest.mark.django_db


def search_text(publication: Publication) -> str:
    publication.refresh_from_db(fields=["search_text"])
    return publication.search_text


def test_the_search_text_is_the_title_then_each_author_on_a_line_folded():
    paper = make_publication(title="Klotski:  Efficient   Memory", authors=["Hang Zhu", "Bo Zhao"])
    assert search_text(paper) == "klotski: efficient memory\nhang zhu\nbo zhao"


def test_the_search_text_follows_renames_new_moved_and_removed_authors():
    paper = make_publication(title="Klotski", authors=["Hang Zhu", "Bo Zhao"])
    paper.title = "Klotski Revisited"
    paper.save()
    assert search_text(paper) == "klotski revisited\nhang zhu\nbo zhao"

    Authorship.objects.get(publication=paper, name="Hang Zhu").delete()
    Authorship.objects.create(publication=paper, position=3, name="José García")
    assert search_text(paper) == "klotski revisited\nbo zhao\njose garcia"

    first = Authorship.objects.get(publication=paper, name="José García")
    first.position = 1
    first.save()
    assert search_text(paper) == "klotski revisited\njose garcia\nbo zhao"


def test_a_bibtex_import_gives_its_papers_their_search_text():
    from publications.bibtex import import_bibtex

    text = (
        "@inproceedings{zhu2023klotski, title={Klotski}, author={Zhu, Hang and Bo Zhao}, year=2023}"
    )
    (paper,) = import_bibtex(text=text).created
    assert search_text(paper) == "klotski\nhang zhu\nbo zhao"


def test_the_migration_folds_the_search_texts_stored_before_it():
    import importlib

    from django.apps import apps

    migration = importlib.import_module("publications.migrations.0023_search_fold_search_text")
    paper = make_publication(title="Über Caches", authors=["José Núñez"])
    Publication.objects.filter(pk=paper.pk).update(search_text="Über Caches\nJosé Núñez")
    migration.fold_search_texts(apps, None)
    assert search_text(paper) == "uber caches\njose nunez"
    # On SQLite the FTS5 index followed the update, so the search finds the folded name.
    from publications.filters import search_publications

    assert list(search_publications(Publication.objects.all(), "q", "Nunez")) == [paper]
