"""A name suffix ("Jr.", "III") is a suffix in every export, never a family name: imported from
BibTeX's three-part form "von Last, Jr, First" or typed after the name, with or without a comma."""

import json

import bibtexparser
import pytest
import rispy
from bibtexparser import middlewares

from people.names import split_name
from publications.bibtex import import_bibtex
from publications.exports import bibtex, csl_json, ris
from publications.models import Publication
from tests.factories import make_publication


@pytest.mark.parametrize(
    "typed",
    ["Steele, Jr., Guy L.", "Guy L. Steele Jr.", "Guy L. Steele, Jr.", "Steele, Guy L., Jr."],
)
def test_a_suffix_typed_any_usual_way_is_split_from_the_family_name(typed):
    parts = split_name(typed)
    assert (parts.given, parts.family, parts.suffix) == ("Guy L.", "Steele", "Jr.")


@pytest.mark.django_db
def test_an_imported_three_part_name_is_exported_with_its_suffix_in_every_format():
    import_bibtex(
        text="@article{s, title={Common Lisp}, author={Steele, Jr., Guy L. and Martin Luther King III}, year=1984}\n"
    )
    papers = Publication.objects.for_export().filter(title="Common Lisp")

    csl = json.loads(csl_json(papers, base_url="http://testserver"))
    assert csl[0]["author"] == [
        {"family": "Steele", "given": "Guy L.", "suffix": "Jr."},
        {"family": "King", "given": "Martin Luther", "suffix": "III"},
    ]

    record = rispy.loads(ris(papers, base_url="http://testserver"))[0]
    assert record["authors"] == ["Steele, Guy L., Jr.", "King, Martin Luther, III"]

    library = bibtexparser.parse_string(
        bibtex(papers),
        append_middleware=[
            middlewares.LatexDecodingMiddleware(),
            middlewares.SeparateCoAuthors(),
            middlewares.SplitNameParts(),
        ],
    )
    steele, king = library.entries[0]["author"]
    assert (steele.first, steele.last, steele.jr) == (["Guy", "L."], ["Steele"], ["Jr."])
    assert (king.first, king.last, king.jr) == (["Martin", "Luther"], ["King"], ["III"])


@pytest.mark.django_db
def test_a_typed_suffix_is_not_the_first_authors_family_name_in_the_citation_key():
    paper = make_publication(title="Growing a Language", year=1998, authors=["Guy L. Steele Jr."])
    paper.refresh_from_db()
    assert paper.citation_key.startswith("steele1998")
