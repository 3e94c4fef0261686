"""Exports at department scale: counted before any row is read, written without the per-field
LaTeX encoder for plain ASCII text, and the same file either way."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from publications import exports, views
from publications.exports import LATEX_ENCODER, PLAIN_LATEX
from publications.models import Publication
from tests.factories import make_publication, make_venue

pytestmark = pytest.mark.django_db


def test_the_plain_text_fast_path_writes_what_the_latex_encoder_writes():
    plain = [chr(code) for code in range(32, 127) if PLAIN_LATEX.fullmatch(chr(code))]
    assert len(plain) > 70  # letters, digits, most punctuation
    for character in plain:
        assert LATEX_ENCODER.unicode_to_latex(character) == character
    for special in ['"', "<", ">", "&", "%", "$", "#", "_", "{", "}", "~", "^", "\\", "é"]:
        assert not PLAIN_LATEX.fullmatch(special)


def test_an_export_over_the_cap_is_refused_after_a_count_without_reading_rows(client, monkeypatch):
    monkeypatch.setattr(views, "EXPORT_MAX_ROWS", 3)
    for number in range(4):
        make_publication(title=f"Paper {number}", authors=["Ann Lee"])
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/publications/export.bib")
    assert response.status_code == 400
    selects = [query["sql"] for query in queries if "publications_publication" in query["sql"]]
    assert len(selects) == 1 and "COUNT(" in selects[0]
    assert not any("publications_authorship" in query["sql"] for query in queries)


def test_authors_are_read_as_names_without_authorship_or_person_objects(monkeypatch):
    venue = make_venue(short_name="NSDI")
    paper = make_publication(title="Klotski", venue=venue, authors=["Hang Zhu", "José García"])
    built = []
    real_init = exports.Authorship.__init__

    def spy(self, *args, **kwargs):
        built.append(self)
        real_init(self, *args, **kwargs)

    monkeypatch.setattr(exports.Authorship, "__init__", spy)
    text = exports.bibtex(Publication.objects.published().for_export())
    assert built == []
    assert "author = {Hang Zhu and Jos\\'e Garc{\\'\\i}a}" in text
    # The page's "Cite" block passes a paper with its authorships prefetched: the same entry.
    monkeypatch.undo()
    listed = Publication.objects.for_listing().get(pk=paper.pk)
    assert exports.bibtex([listed]) == text
