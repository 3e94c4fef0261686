"""Exports at department scale: written without the per-field LaTeX encoder for plain ASCII
text, and the same file either way."""

import pytest
from django.db.models.signals import pre_init

from publications import exports
from publications.exports import LATEX_ENCODER, PLAIN_LATEX
from publications.models import Publication, PublicationAward, PublicationLink, Venue
from tests.factories import make_publication, make_venue

pytestmark = pytest.mark.django_db


def test_the_plain_text_fast_path_writes_what_the_latex_encoder_writes():
    plain = [chr(code) for code in range(32, 127) if PLAIN_LATEX.fullmatch(chr(code))]
    assert len(plain) > 70  # letters, digits, most punctuation
    for character in plain:
        assert LATEX_ENCODER.unicode_to_latex(character) == character
    for special in ['"', "<", ">", "&", "%", "$", "#", "_", "{", "}", "~", "^", "\\", "é"]:
        assert not PLAIN_LATEX.fullmatch(special)


def test_authors_links_and_awards_are_read_as_strings_without_model_objects():
    venue = make_venue(short_name="NSDI")
    paper = make_publication(title="Klotski", venue=venue, authors=["Hang Zhu", "José García"])
    PublicationLink.objects.create(publication=paper, position=1, url="https://example.org/k.pdf")
    PublicationAward.objects.create(publication=paper, position=1, name="Best Paper")
    built = []

    def count(sender, **kwargs):
        built.append(sender)

    pre_init.connect(count)
    try:
        text = exports.bibtex(Publication.objects.published().for_export())
        table = exports.csv_table(Publication.objects.published().for_export(), base_url="")
    finally:
        pre_init.disconnect(count)
    assert set(built) == {Publication, Venue}
    assert "author = {Hang Zhu and Jos{\\'e} Garc{\\'i}a}" in text
    assert "url = {https://example.org/k.pdf}" in text
    assert "Best Paper" in table
    # The page's "Cite" block passes a paper with its parts prefetched: the same entry.
    listed = Publication.objects.for_listing().get(pk=paper.pk)
    assert exports.bibtex([listed]) == text
