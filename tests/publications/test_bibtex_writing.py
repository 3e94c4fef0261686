"""Each BibTeX entry is written by publications.exports itself, not through bibtexparser's
writer, and a large export reads its papers as plain values through its own filter: the same
bytes as bibtexparser writes, whichever way the paper was read, on tricky text."""

import bibtexparser
import pytest
from bibtexparser import middlewares
from bibtexparser.library import Library
from bibtexparser.model import Entry, Field
from bibtexparser.writer import BibtexFormat

from base import site_cache
from publications import exports
from publications.models import Authorship, Publication, PublicationLink
from tests.factories import make_publication, make_venue

pytestmark = pytest.mark.django_db

TRICKY = [
    "Braces {and} a lone } or {",
    "100% of R&D_costs #1 ~ x^2",
    "C:\\path\\to\\file",
    "José García, Zoë Ångström and Łukasz",
    "ﬁnal ﬂows: ligatures",
    "Χρήστος Ζήσης, Дмитрий, 张伟",
    "Tabs\tand\nline breaks\r\nand  double  spaces",
    "A\x00 control\x1f character\x85 and\u00a0a no-break space",
    "Quotes \"double\" and 'single', <angle> brackets, `ticks`, $dollars$",
    "1984",
]


def bibtexparser_wrote(entry_type: str, key: str, fields: list[tuple[str, str]]) -> str:
    """What bibtexparser's writer makes of the entry, in the layout exports uses."""
    layout = BibtexFormat()
    layout.indent = "  "
    layout.block_separator = "\n"
    enclosing = middlewares.AddEnclosingMiddleware(
        reuse_previous_enclosing=False, enclose_integers=False, default_enclosing="{"
    )
    entry = Entry(entry_type, key, [Field(name, value) for name, value in fields])
    return bibtexparser.write_string(
        Library([entry]), unparse_stack=[enclosing], bibtex_format=layout
    )


@pytest.mark.parametrize("text", TRICKY)
def test_an_entry_is_written_as_bibtexparser_writes_it(text):
    fields = [
        ("author", exports.bibtex_name(text)),
        ("title", "{" + exports.latex(text) + "}"),
        ("booktitle", exports.latex(text)),
        ("year", "2024"),
        ("volume", text),
        ("doi", exports.verbatim(text)),
        ("note", exports.latex(text)),
    ]
    assert exports.write_bibtex_entry("inproceedings", "zhu2024text", fields) == bibtexparser_wrote(
        "inproceedings", "zhu2024text", fields
    )


@pytest.mark.parametrize("text", TRICKY)
def test_the_printable_text_fast_path_gives_what_the_full_clean_up_gives(text):
    cleaned = " ".join(exports.strip_control_characters(text).split())
    assert exports.one_line(text) == cleaned
    assert exports.one_line(text + " plain tail") == cleaned + " plain tail"


@pytest.fixture
def papers():
    venue = make_venue(short_name="1984", full_name="Symposium {on} 100% R&D")
    plain = make_venue(short_name="arXiv", full_name="")
    made = []
    for number, text in enumerate(TRICKY):
        paper = make_publication(
            year=2020 + number % 3,
            venue=[venue, plain, None][number % 3],
            type=list(Publication.Type)[number % len(Publication.Type)],
            authors=["First Author", "Ann Lee", "Hang Zhu, Jr."],
        )
        PublicationLink.objects.create(
            publication=paper, position=1, url=f"https://example.org/{number}.pdf"
        )
        # Stored as rows saved before validation could be (update() checks nothing); but for
        # NUL, which PostgreSQL refuses to store.
        text = text.replace("\x00", "\x01")
        Publication.objects.filter(pk=paper.pk).update(title=text, doi=f"10.1000/{number}{{x}}")
        Authorship.objects.filter(publication=paper, position=1).update(name=text[:60])
        made.append(paper)
    # A row inserted without its key (a script's bulk insert) is written with its base key.
    Publication.objects.filter(pk=made[0].pk).update(citation_key="")
    return made


def test_an_export_read_through_its_filter_writes_what_the_cite_blocks_write(papers, monkeypatch):
    """A year's export reads its rows as values through its filter (many entries missing) or
    by their ids (a few); a list's "Cite" block writes from the objects it loaded."""
    queryset = Publication.objects.published().for_export()
    by_ids = exports.bibtex(queryset)
    site_cache._kept.clear()
    monkeypatch.setattr(exports, "BIBTEX_BY_IDS", 0)
    through_filter = exports.bibtex(queryset)
    site_cache._kept.clear()
    listed = {p.pk: p for p in Publication.objects.for_listing()}
    from_objects = exports.bibtex([listed[pk] for pk in queryset.values_list("pk", flat=True)])
    assert through_filter == by_ids == from_objects
    assert through_filter.count("\n@") == len(papers) - 1
    library = bibtexparser.parse_string(through_filter)
    assert not library.failed_blocks
    assert len(library.entries) == len(papers)
    first_key = exports.citation_keys([Publication.objects.get(pk=papers[0].pk)])[papers[0].pk]
    assert first_key in library.entries_dict


@pytest.mark.parametrize(
    ("text", "written"),
    [
        # Each accented letter in braces of its own, which classic BibTeX reads as one letter.
        ("José Núñez", "Jos{\\'e} N{\\'u}{\\~n}ez"),
        ("João Gonçalves", "Jo{\\~a}o Gon{\\c{c}}alves"),
        ("Ortíz", "Ort{\\'i}z"),
        # Dashes as TeX's ligatures; signs in UTF-8, which pandoc reads and its macros not.
        ("2019–2024 — now", "2019--2024 --- now"),
        ("Wait… £5 «ok»", "Wait… £5 «ok»"),
    ],
)
def test_text_is_written_as_every_bibtex_reader_reads_it(text, written):
    assert exports.latex(text) == written


@pytest.mark.parametrize(
    ("name", "written"),
    [
        ("José Núñez", "Jos{\\'e} N{\\'u}{\\~n}ez"),
        # A braced first word is a particle to pandoc 2.17: such a name is written family first.
        ("Émile Ñúñez", "{\\~N}{\\'u}{\\~n}ez, {\\'E}mile"),
        ("Ángel de la Fuente", "de la Fuente, {\\'A}ngel"),
    ],
)
def test_a_name_is_written_as_bibtex_and_pandoc_both_read_it(name, written):
    assert exports.bibtex_name(name) == written
