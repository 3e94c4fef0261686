"""Every export read back by the tools researchers feed it to, field by field against what staff
entered (issue 23): the .bib by bibtexparser, pybtex and pandoc, the RIS by rispy, the
CSL-JSON by citeproc-py, as data and as a formatted bibliography. (bibtex and biber read the
.bib in test_bibtex_read_back.py and test_theses_and_chapters.py; the feeds and the sitemap are checked against their schemas in
tests/news/test_feeds_read_back.py and tests/pages/test_sitemap.py.)

The corpus holds what trips readers: accented and hyphenated names, a CJK name, a suffix
("Jr."), particles ("van", "de la"), a thesis, a book chapter, a preprint, a dataset-like misc
entry, LaTeX math and `&%$#_` in titles. What a format has no place for is written once, in
CANNOT_CARRY, and asserted exactly: every other field must come back as entered.
"""

import json
from dataclasses import dataclass

import bibtexparser
import pybtex.database
import pytest
import rispy
from bibtexparser import middlewares
from citeproc import (
    Citation,
    CitationItem,
    CitationStylesBibliography,
    CitationStylesStyle,
    formatter,
)
from citeproc.source.json import CiteProcJSON
from pylatexenc.latex2text import LatexNodes2Text

from publications.models import Publication
from tests.factories import make_publication, make_venue
from tests.publications.test_bibtex_read_back import pandoc

pytestmark = pytest.mark.django_db

Type = Publication.Type


@dataclass(frozen=True)
class Name:
    given: str
    family: str  # with its particle: "van Beethoven", "de la Fuente"
    suffix: str = ""

    @property
    def typed(self) -> str:
        """As staff type it in the author row."""
        return " ".join(part for part in (self.given, self.family, self.suffix) if part)


@dataclass(frozen=True)
class Entered:
    """A paper as staff entered it, and how each format names its type."""

    title: str
    authors: tuple[Name, ...]
    type: str
    venue: str  # the venue's display name, "" without one
    year: int
    doi: str
    bibtex_type: str
    ris_type: str
    csl_type: str
    publisher: str = ""


MATH_TITLE = "The $O(n^2)$ Barrier in Ñandú Scheduling"
STEELE = Name("Guy L.", "Steele", "Jr.")
CORPUS = [
    Entered(
        title="Caching 100% of R&D_costs #1 for $5: Fast, or Not",
        authors=(Name("José", "Núñez"), STEELE, Name("Ludwig", "van Beethoven"), Name("", "张伟")),
        type=Type.CONFERENCE_PAPER,
        venue="IEEE Symposium on Security and Privacy (IEEE S&P)",
        year=2024,
        doi="10.1109/sp.2024.00001",
        bibtex_type="inproceedings",
        ris_type="CPAPER",
        csl_type="paper-conference",
    ),
    Entered(
        title=MATH_TITLE,
        authors=(Name("Ángel", "de la Fuente"), Name("João", "Gonçalves")),
        type=Type.JOURNAL_ARTICLE,
        venue="ACM Transactions on Computer Systems (TOCS)",
        year=2023,
        doi="10.1145/3600000.3600001",
        bibtex_type="article",
        ris_type="JOUR",
        csl_type="article-journal",
    ),
    Entered(
        title="Network Systems for Distributed Training",
        authors=(Name("Hang", "Zhu"),),
        type=Type.THESIS,
        venue="Johns Hopkins University (JHU)",
        year=2022,
        doi="",
        bibtex_type="phdthesis",
        ris_type="THES",
        csl_type="thesis",
    ),
    Entered(
        title="Schedulers for Deep Learning",
        authors=(Name("Jean-Pierre", "Lévy-Bruhl"), Name("Émile", "Ñúñez")),
        type=Type.BOOK_CHAPTER,
        venue="Handbook of Distributed Computing (HDC)",
        year=2021,
        doi="10.1007/978-3-030-00001-1_4",
        bibtex_type="incollection",
        ris_type="CHAP",
        csl_type="chapter",
        publisher="Springer",
    ),
    Entered(
        title="Scaling RL Training via Efficient Load Balancing",
        authors=(Name("Zerui", "Wang"), Name("Wei-Ying", "Ma")),
        type=Type.PREPRINT,
        venue="arXiv",
        year=2025,
        doi="10.48550/arXiv.2501.00001",
        bibtex_type="misc",
        ris_type="UNPB",
        csl_type="article",
    ),
    Entered(
        title="Traces of 10,000 GPU Jobs (Data Set)",
        authors=(Name("", "王小明"), Name("Haoran", "Zhang")),
        type=Type.OTHER,
        venue="",
        year=2024,
        doi="10.5281/zenodo.0000001",
        bibtex_type="misc",
        ris_type="GEN",
        csl_type="document",
    ),
]
FIELDS = ("type", "title", "authors", "venue", "publisher", "year", "doi")

# What a reader cannot get back, by (reader, title of the paper, field), with what it reads
# instead and why: the one list of them. CSL-JSON, RIS and BibTeX have a place for every field
# of the corpus; one sign is lost, by the two readers that decode LaTeX with pylatexenc.
CANNOT_CARRY: dict[tuple[str, str, str], tuple[object, str]] = {
    (reader, MATH_TITLE, "title"): (
        "The $O(nˆ2)$ Barrier in Ñandú Scheduling",
        # LaTeX has no way to write a caret as text that pylatexenc (bibtexparser's decoder,
        # and ours on pybtex's text) reads as one: it reads {\textasciicircum} as "ˆ"
        # (U+02C6) and \^{} as nothing. bibtex, biber and pandoc read it as "^".
        "pylatexenc reads LaTeX's caret as a modifier letter",
    )
    for reader in ("bibtexparser", "pybtex")
}
# The format each reader reads.
READS = {
    "bibtexparser": "bibtex",
    "pybtex": "bibtex",
    "pandoc": "bibtex",
    "rispy": "ris",
    "citeproc-py": "csl",
}


@pytest.fixture
def corpus() -> dict[str, Entered]:
    kinds = {Type.PREPRINT: "preprint-server", Type.THESIS: "other", Type.BOOK_CHAPTER: "other"}
    for paper in CORPUS:
        venue = None
        if paper.venue:
            full, _, short = paper.venue.rpartition(" (")
            venue = make_venue(
                short_name=short.rstrip(")") if full else paper.venue,
                full_name=full,
                kind=kinds.get(
                    paper.type, "journal" if paper.type == Type.JOURNAL_ARTICLE else "conference"
                ),
            )
        make_publication(
            title=paper.title,
            type=paper.type,
            venue=venue,
            year=paper.year,
            doi=paper.doi,
            publisher=paper.publisher,
            authors=[name.typed for name in paper.authors],
        )
    return {paper.title: paper for paper in CORPUS}


# The CSL type pandoc gives each BibTeX type it reads (its own mapping; @misc has none).
PANDOC_TYPES = {
    "inproceedings": "paper-conference",
    "article": "article-journal",
    "phdthesis": "thesis",
    "incollection": "chapter",
    "misc": "",
}


def expected(paper: Entered, reader: str) -> dict[str, object]:
    types = {"bibtex": paper.bibtex_type, "ris": paper.ris_type, "csl": paper.csl_type}
    return {
        "type": PANDOC_TYPES[paper.bibtex_type] if reader == "pandoc" else types[READS[reader]],
        "title": paper.title,
        "authors": [(name.given, name.family, name.suffix) for name in paper.authors],
        "venue": paper.venue,
        "publisher": paper.publisher,
        "year": paper.year,
        "doi": paper.doi,
    }


def mismatches(reader: str, read: dict[str, dict[str, object]], corpus: dict[str, Entered]):
    """Each field read back that differs from what staff entered, or, for a field
    CANNOT_CARRY lists, from what that list says the reader reads instead."""
    # A title the reader is known to read otherwise finds its paper by what it reads.
    entered = {
        lost[0]: title
        for (name, title, field), lost in CANNOT_CARRY.items()
        if (name, field) == (reader, "title")
    }
    read = {entered.get(title, title): fields for title, fields in read.items()}
    assert sorted(read) == sorted(corpus), reader
    found = []
    for title, fields in read.items():
        want = expected(corpus[title], reader)
        for field in FIELDS:
            if lost := CANNOT_CARRY.get((reader, title, field)):
                want[field] = lost[0]  # exactly what the reader is known to read instead
            if fields[field] != want[field]:
                found.append((reader, title, field, fields[field], want[field]))
    return found


LATEX = LatexNodes2Text()


def from_latex(text: str) -> str:
    return " ".join(LATEX.latex_to_text(text).split())


def bib_venue(fields: dict[str, str], entry_type: str) -> str:
    name = {
        "inproceedings": "booktitle",
        "incollection": "booktitle",
        "article": "journal",
        "phdthesis": "school",
        "misc": "howpublished",
    }[entry_type]
    return fields.get(name, "")


def read_with_bibtexparser(bib: str) -> dict[str, dict[str, object]]:
    library = bibtexparser.parse_string(
        bib,
        # bibtexparser decodes text fields only: names are decoded, then split, as its
        # documentation's stack does.
        append_middleware=[
            middlewares.LatexDecodingMiddleware(),
            middlewares.SeparateCoAuthors(),
            middlewares.SplitNameParts(),
        ],
    )
    assert not library.failed_blocks
    read = {}
    for entry in library.entries:
        fields = {field.key: field.value for field in entry.fields}
        strings = {key: " ".join(str(value).split()) for key, value in fields.items()}
        read[strings["title"]] = {
            "type": entry.entry_type,
            "title": strings["title"],
            "authors": [
                (" ".join(name.first), " ".join(name.von + name.last), " ".join(name.jr))
                for name in fields["author"]
            ],
            "venue": bib_venue(strings, entry.entry_type),
            "publisher": strings.get("publisher", ""),
            "year": int(strings["year"]),
            "doi": strings.get("doi", ""),
        }
    return read


def read_with_pybtex(bib: str) -> dict[str, dict[str, object]]:
    data = pybtex.database.parse_string(bib, "bibtex")
    read = {}
    for entry in data.entries.values():
        fields = {key.lower(): from_latex(value) for key, value in entry.fields.items()}
        fields["doi"] = entry.fields.get("doi", "")  # written verbatim, not LaTeX
        read[fields["title"]] = {
            "type": entry.type,
            "title": fields["title"],
            "authors": [
                (
                    from_latex(" ".join(person.first_names + person.middle_names)),
                    from_latex(" ".join(person.prelast_names + person.last_names)),
                    from_latex(" ".join(person.lineage_names)),
                )
                for person in entry.persons["author"]
            ],
            "venue": bib_venue(fields, entry.type),
            "publisher": fields.get("publisher", ""),
            "year": int(fields["year"]),
            "doi": fields["doi"],
        }
    return read


def read_with_pandoc(bib: str) -> dict[str, dict[str, object]]:
    """pandoc reads a thesis's school and a misc entry's howpublished as CSL `publisher`."""
    read = {}
    for item in json.loads(pandoc("-f", "bibtex", "-t", "csljson", stdin=bib)):
        in_container = item["type"] not in ("thesis", "")
        publisher = item.get("publisher", "")
        read[item["title"]] = {
            "type": item["type"],
            "title": item["title"],
            "authors": [csl_name(name) for name in item.get("author", [])],
            "venue": item.get("container-title", "") if in_container else publisher,
            "publisher": publisher if in_container else "",
            "year": item["issued"]["date-parts"][0][0],
            "doi": item.get("DOI", ""),
        }
    return read


def ris_name(name: str) -> tuple[str, str, str]:
    """RIS writes "Family, Given, Suffix"; a name without a comma is all family."""
    family, given, suffix = [*name.split(", "), "", ""][:3]
    return given, family, suffix


def read_with_rispy(ris: str) -> dict[str, dict[str, object]]:
    read = {}
    for record in rispy.loads(ris):
        is_thesis = record["type_of_reference"] == "THES"
        read[record["title"]] = {
            "type": record["type_of_reference"],
            "title": record["title"],
            "authors": [ris_name(name) for name in record.get("authors", [])],
            "venue": record.get("publisher" if is_thesis else "secondary_title", ""),
            "publisher": "" if is_thesis else record.get("publisher", ""),
            "year": int(record["year"]),
            "doi": record.get("doi", ""),
        }
    return read


def csl_name(name) -> tuple[str, str, str]:
    name = dict(name)
    if "literal" in name:
        return "", name["literal"], ""
    particle = name.get("non-dropping-particle") or name.get("dropping-particle") or ""
    family = " ".join(part for part in (particle, name["family"]) if part)
    return name.get("given", ""), family, name.get("suffix", "")


def read_with_citeproc(items: list[dict]) -> dict[str, dict[str, object]]:
    source = CiteProcJSON(items)
    read = {}
    for item in items:
        reference = source[item["id"].lower()]
        data = dict(reference)
        is_thesis = data["type"] == "thesis"
        container = " ".join(data.get("container_title", []))
        publisher = " ".join(data.get("publisher", []))
        read[" ".join(data["title"])] = {
            "type": data["type"],
            "title": " ".join(data["title"]),
            "authors": [csl_name(name) for name in data.get("author", [])],
            "venue": publisher if is_thesis else container,
            "publisher": "" if is_thesis else publisher,
            "year": data["issued"]["year"],
            "doi": " ".join(data.get("DOI", [])),
        }
    return read


def test_bibtexparser_reads_every_field_of_the_bib_as_entered(client, corpus):
    bib = client.get("/publications/export.bib").content.decode()
    assert mismatches("bibtexparser", read_with_bibtexparser(bib), corpus) == []


def test_pybtex_reads_every_field_of_the_bib_as_entered(client, corpus):
    bib = client.get("/publications/export.bib").content.decode()
    assert mismatches("pybtex", read_with_pybtex(bib), corpus) == []


@pytest.mark.needs("pandoc")
def test_pandoc_reads_every_field_of_the_bib_as_entered(client, corpus):
    bib = client.get("/publications/export.bib").content.decode()
    assert mismatches("pandoc", read_with_pandoc(bib), corpus) == []


def test_rispy_reads_every_field_of_the_ris_as_entered(client, corpus):
    ris = client.get("/publications/export.ris").content.decode()
    assert mismatches("rispy", read_with_rispy(ris), corpus) == []


def test_citeproc_py_reads_every_field_of_the_csl_json_as_entered(client, corpus):
    items = json.loads(client.get("/publications/export.json").content)
    assert mismatches("citeproc-py", read_with_citeproc(items), corpus) == []


def test_citeproc_py_prints_each_title_venue_family_name_and_year_as_entered(client, corpus):
    """A formatted bibliography (Harvard, the style citeproc-py ships) holds what a reader of
    the paper's reference list must see, accents, CJK and `&%$#_` included; the thesis as
    "Thesis. Johns Hopkins University", no container."""
    items = json.loads(client.get("/publications/export.json").content)
    source = CiteProcJSON(items)
    style = CitationStylesStyle("harvard-cite-them-right", validate=False)
    bibliography = CitationStylesBibliography(style, source, formatter.plain)
    for item in items:
        bibliography.register(Citation([CitationItem(item["id"].lower())]))
    printed = {str(entry) for entry in bibliography.bibliography()}
    missing = []
    for paper in corpus.values():
        (entry,) = [text for text in printed if paper.title in text] or [""]
        # The style names up to three authors, the first one alone ("et al.") for more.
        named = paper.authors if len(paper.authors) <= 3 else paper.authors[:1]
        wanted = [paper.title, str(paper.year), *(name.family for name in named)]
        wanted += [paper.venue] if paper.venue else []
        wanted += [paper.publisher] if paper.publisher else []
        missing += [(paper.title, text) for text in wanted if text not in entry]
    assert missing == [], printed
    (thesis,) = [text for text in printed if "Network Systems" in text]
    assert "Training. Thesis. Johns Hopkins University (JHU)." in thesis
