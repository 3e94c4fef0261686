"""Lists of publications in the formats reference managers read: BibTeX, RIS, CSL-JSON, CSV.

Each function takes publications from `Publication.objects.published().for_export()` (or
`for_listing()`, whose authorships are prefetched), so the venue, awards and links are already
fetched; its one query of its own reads the authors' names, as plain strings: a year's export
names ten thousand authors, and objects for them would take most of its time. Citation keys are
stored on the rows (publications/citation_keys.py). A publication without a year is written
without one.

Text goes out without control characters (`one_line`): validation refuses them now, but a row
stored before may hold one, and reference managers choke on them (CSV readers on NUL).

Other apps' exports (outputs/exports.py: datasets and software) write their entries with the
same pieces, so a name or a title is written one way wherever the site writes it: `one_line`,
`latex`, `verbatim`, `bibtex_name`, `csl_name` and `write_bibtex_entry` are this module's
public writing helpers.
"""

import csv
import io
import json
import re
import textwrap
import unicodedata
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import islice
from typing import Any, NamedTuple

from bibtexparser.middlewares.enclosing import ENTRY_POTENTIALLY_INT_FIELDS
from django.db.models import Model, QuerySet
from pylatexenc.latex2text import LatexNodes2Text
from pylatexenc.latexencode import UnicodeToLatexEncoder

from base.markdown import plain_text
from base.site_cache import cached_each
from base.structured_data import without_empty
from base.validation import strip_control_characters, without_control_characters
from people.names import split_name
from publications.citation_keys import base_citation_key, citation_keys
from publications.models import Publication, PublicationLink, PublicationQuerySet, Venue

CONTENT_TYPES = {
    "bib": "application/x-bibtex; charset=utf-8",
    "ris": "application/x-research-info-systems; charset=utf-8",
    "json": "application/vnd.citationstyles.csl+json; charset=utf-8",
    "csv": "text/csv; charset=utf-8",
}

Type = Publication.Type

BIBTEX_TYPES: dict[str, str] = {
    Type.CONFERENCE_PAPER: "inproceedings",
    Type.WORKSHOP_PAPER: "inproceedings",
    Type.POSTER: "inproceedings",
    Type.JOURNAL_ARTICLE: "article",
    Type.BOOK_CHAPTER: "incollection",
    Type.THESIS: "phdthesis",
    Type.PREPRINT: "misc",
    Type.OTHER: "misc",
}
# The field each BibTeX type names its venue in.
BIBTEX_VENUE_FIELDS = {
    "inproceedings": "booktitle",
    "incollection": "booktitle",
    "article": "journal",
    "phdthesis": "school",
    "misc": "howpublished",
}
RIS_TYPES: dict[str, str] = {
    Type.CONFERENCE_PAPER: "CPAPER",
    Type.WORKSHOP_PAPER: "CPAPER",
    Type.POSTER: "CPAPER",
    Type.JOURNAL_ARTICLE: "JOUR",
    Type.BOOK_CHAPTER: "CHAP",
    Type.THESIS: "THES",
    Type.PREPRINT: "UNPB",
    Type.OTHER: "GEN",
}
CSL_TYPES: dict[str, str] = {
    Type.CONFERENCE_PAPER: "paper-conference",
    Type.WORKSHOP_PAPER: "paper-conference",
    Type.POSTER: "paper-conference",
    Type.JOURNAL_ARTICLE: "article-journal",
    Type.BOOK_CHAPTER: "chapter",
    Type.THESIS: "thesis",
    Type.PREPRINT: "article",  # CSL's type for preprints and working papers
    Type.OTHER: "document",
}
# What CSL styles print as the kind of a work that its CSL type does not say. A thesis is only
# "Thesis": the site records no degree (the BibTeX import reads phdthesis and mastersthesis alike).
CSL_GENRES: dict[str, str] = {Type.POSTER: "Poster", Type.THESIS: "Thesis"}
CSV_COLUMNS = [
    "citation_key",
    "title",
    "authors",
    "equal_contribution",
    "year",
    "venue",
    "venue_full_name",
    "type",
    "status",
    "doi",
    "url",
    "pdf_url",
    "awards",
    "publisher",
]

# Accents become LaTeX, each accented letter in braces of its own ({\'e}, {\~n}): classic BibTeX
# reads a braced accent as one letter, and splits or drops one written bare (\'e) when a style
# abbreviates or sorts names. Characters LaTeX has no command for (Chinese, say) are kept as
# they are.
LATEX_ENCODER = UnicodeToLatexEncoder(
    unknown_char_policy="keep",
    unknown_char_warning=False,
    replacement_latex_protection="braces-all",
)
# LaTeX's special characters are not letters: escaped as LaTeX writes them (\%, \&), unbraced.
LATEX_SPECIALS_ENCODER = UnicodeToLatexEncoder(
    unknown_char_policy="keep", unknown_char_warning=False
)
# An accented i is written {\'i}: pandoc reads pylatexenc's {\'\i} as a dotless ı and an accent.
# Only ı and ȷ themselves are written \i and \j.
DOTLESS = {"\u0131", "\u0237"}
# Letters without accents that LaTeX names and every reader, pandoc 2.17 included, reads back.
LATEX_LETTERS = set("ÆæØøßıŁłŒœ")
# Dashes as TeX's ligatures: pandoc 2.17 (Debian 12) drops {\textendash} and {\textemdash}, and
# every reader, BibTeX's styles and bibtexparser included, reads "--" as an en dash.
LATEX_LIGATURES = {"\u2013": "--", "\u2014": "---"}
# Text that LaTeX reads as it is: ASCII without LaTeX's special characters. Most titles and
# names are, and skipping the encoder for them halves the time of a large export.
PLAIN_LATEX = re.compile(r"[ !'()*+,\-./0-9:;=?@A-Z\[\]`a-z|]*")
# What reference managers read LaTeX with (bibtexparser's decoder): the judge of an encoding.
LATEX_READER = LatexNodes2Text()
# Up to this many papers whose BibTeX is not kept are read by their ids; more, through the
# export's filter (bibtex_entries).
BIBTEX_BY_IDS = 100
# The fields bibtexparser writes without braces when they are digits (its writer's rule).
BARE_DIGITS = set(ENTRY_POTENTIALLY_INT_FIELDS)
# LaTeX's own special characters are always escaped, whatever a reader makes of the command.
LATEX_SPECIALS = set("\\{}%$#&_~^")


class Layout(NamedTuple):
    """How a file is put together from its entries, whether written whole or streamed."""

    head: str
    separator: str
    tail: str
    empty: str  # the whole file when no entry is written

    def whole(self, entries: Iterable[str]) -> str:
        entries = list(entries)
        return self.head + self.separator.join(entries) + self.tail if entries else self.empty

    def pieces(self, chunks: Iterable[list[str]]) -> Iterator[str]:
        """One piece per non-empty chunk of entries, the last with the tail: joined, exactly
        what `whole` writes of all the entries. Each piece is given out once the next chunk is
        written, so the caller learns from the first two pieces whether there are more."""
        chunks = (chunk for chunk in chunks if chunk)
        if (first := next(chunks, None)) is None:
            yield self.empty
            return
        piece = self.head + self.separator.join(first)
        for chunk in chunks:
            yield piece
            piece = self.separator + self.separator.join(chunk)
        yield piece + self.tail


BIBTEX_LAYOUT = Layout(head="", separator="\n", tail="", empty="")
# Each RIS record ends with its own line break; a blank line stands between records.
RIS_LAYOUT = Layout(head="", separator="\r\n", tail="", empty="")
# An array of the items, indented as json.dumps(items, indent=2) writes it.
CSL_JSON_LAYOUT = Layout(head="[\n", separator=",\n", tail="\n]\n", empty="[]\n")


def bibtex(publications: Iterable[Publication] | QuerySet[Publication]) -> str:
    """A .bib file: one entry per publication, keyed by its citation key."""
    return BIBTEX_LAYOUT.whole(bibtex_entries(publications).values())


def bibtex_entries(publications: Iterable[Publication] | QuerySet[Publication]) -> dict[int, str]:
    """Each publication's BibTeX entry by pk, in the order given, written once per change and
    kept for every export and "Cite" block that shows the paper (site_cache.cached_each): a
    year's export at 20,000 papers spends most of its time loading its 1,100 papers' authors
    and writing them. Publications given as a QuerySet are loaded only if their entries are
    not kept, as plain values (BibtexPaper); one deleted since it was counted is left out."""
    if isinstance(publications, PublicationQuerySet):
        ids, loaded = list(publications.values_list("pk", flat=True)), {}
    else:
        loaded = {publication.pk: publication for publication in publications}
        ids = list(loaded)

    def write(missing: list[int]) -> dict[int, str]:
        if loaded:
            return {
                row.publication.pk: _bibtex_text(
                    BibtexPaper.of(row.publication), row.key, row.authors, row.pdf_url, row.equal
                )
                for row in _rows([loaded[pk] for pk in missing])
            }
        # Read through the export's own filter when many are missing: Django takes longer to
        # put a thousand ids into SQL, three times (the papers, their authors and links), than
        # the database takes to answer. Those whose entries are kept are read and left.
        if len(missing) > BIBTEX_BY_IDS and isinstance(publications, PublicationQuerySet):
            source = publications
        else:
            source = Publication.objects.filter(pk__in=missing)
        wanted = set(missing)
        authors = _values_by_publication(
            [], "authorships", ("name", "equal_contribution"), among=source
        )
        pdfs = _values_by_publication(
            [], "links", "url", among=source, kind=PublicationLink.Kind.PDF
        )
        entries = {}
        for paper in BibtexPaper.read(source):
            if paper.pk in wanted:
                names = [name for name, _ in authors[paper.pk]]
                equal = [name for name, equal in authors[paper.pk] if equal]
                # What citation_keys() gives a row that has no key yet, from the names read here.
                key = paper.citation_key or base_citation_key(
                    first_author=next(iter(names), ""), year=paper.year, title=paper.title
                )
                pdf = next(iter(pdfs[paper.pk]), "")
                entries[paper.pk] = _bibtex_text(paper, key, names, pdf, equal)
        return entries

    return cached_each(
        "publication-bibtex",
        parts=(),
        ids=ids,
        render=write,
        scopes=lambda pk: {f"paper:{pk}"},
    )


class BibtexPaper(NamedTuple):
    """What a BibTeX entry writes of a publication's own row, as plain values: a year's export
    writes a thousand entries, and building model objects for their rows and venues took about
    as long as writing them."""

    pk: int
    title: str
    year: int | None
    type: str
    status: str
    doi: str
    citation_key: str
    publisher: str
    venue: str  # its display name, "" without one

    @classmethod
    def of(cls, publication: Publication) -> "BibtexPaper":
        venue = publication.venue.display_name if publication.venue else ""
        return cls._make([*(getattr(publication, name) for name in cls._fields[:-1]), venue])

    @classmethod
    def read(cls, publications: QuerySet[Publication]) -> list["BibtexPaper"]:
        """Two queries: the rows, then their venues (a few dozen objects, each asked once for
        its display name)."""
        rows = list(publications.order_by().values_list(*cls._fields[:-1], "venue"))
        venues = Venue.objects.in_bulk({row[-1] for row in rows} - {None})
        names = {pk: venue.display_name for pk, venue in venues.items()}
        return [cls._make([*row[:-1], names.get(row[-1], "")]) for row in rows]


def with_citations(publications: Iterable[Publication]) -> list[Publication]:
    """The publications, each with its own BibTeX entry as `bibtex`: what the "Cite" block of a
    list entry shows, read from the kept entries or from their prefetched parts."""
    publications = list(publications)
    entries = bibtex_entries(publications)
    for publication in publications:
        setattr(publication, "bibtex", entries.get(publication.pk, ""))  # noqa: B010
    return publications


@dataclass(frozen=True)
class Row:
    """A publication with what an export writes of its related rows, as plain strings."""

    publication: Publication
    key: str
    authors: list[str]
    pdf_url: str
    awards: list[str]
    equal: list[str]  # the authors marked as equal contributors, in author order


def _rows(publications: Iterable[Publication]) -> list[Row]:
    """Each publication with its citation key, authors' names in order, first PDF link and
    award names: three queries in all, or none when they are prefetched (a page's "Cite")."""
    publications = list(publications)
    keys = citation_keys(publications)
    authors = _values_by_publication(publications, "authorships", ("name", "equal_contribution"))
    pdfs = _values_by_publication(publications, "links", "url", kind=PublicationLink.Kind.PDF)
    awards = _values_by_publication(publications, "awards", "name")
    return [
        Row(
            publication=publication,
            key=keys[publication.pk],
            authors=[name for name, _ in authors[publication.pk]],
            pdf_url=next(iter(pdfs[publication.pk]), ""),
            awards=awards[publication.pk],
            equal=[name for name, equal in authors[publication.pk] if equal],
        )
        for publication in publications
    ]


def _values_by_publication(
    publications: list[Publication],
    related_name: str,
    field: str | tuple[str, ...],
    *,
    among: QuerySet[Publication] | None = None,
    **filters: object,
) -> dict[int, list[Any]]:
    """One field of a publication part (authorships, links, awards), by publication, in the
    parts' order; several fields (a tuple) as a tuple each. Reads the prefetched parts when every publication has them; else one query
    that builds no model object: a year's export has ten thousand authors. That query reads
    the parts of the `publications`, or of those `among` selects when it is given."""
    fields = field if isinstance(field, tuple) else (field,)
    values: dict[int, list[Any]] = defaultdict(list)
    if among is None and all(
        related_name in getattr(p, "_prefetched_objects_cache", {}) for p in publications
    ):
        for publication in publications:
            values[publication.pk] = [
                tuple(getattr(part, name) for name in fields)
                if isinstance(field, tuple)
                else getattr(part, field)
                for part in getattr(publication, related_name).all()
                if all(getattr(part, name) == value for name, value in filters.items())
            ]
        return values
    model = Publication._meta.get_field(related_name).related_model
    assert isinstance(model, type) and issubclass(model, Model)  # never a lazy name once loaded
    papers = among.values("pk") if among is not None else [p.pk for p in publications]
    rows = (
        model._default_manager.filter(publication__in=papers, **filters)
        .order_by("publication", "position")
        .values_list("publication", *fields)
    )
    for publication, *value in rows:
        values[publication].append(tuple(value) if isinstance(field, tuple) else value[0])
    return values


def _bibtex_text(
    paper: BibtexPaper, key: str, authors: list[str], pdf_url: str, equal: list[str]
) -> str:
    entry_type = BIBTEX_TYPES[paper.type] if paper.venue else "misc"
    fields = []
    if authors:
        fields.append(("author", " and ".join(map(bibtex_name, authors))))
    if equal:
        # biblatex's data annotation of names ("1=equal; 2=equal", by the author's place in
        # the list): styles can mark them; classic BibTeX and pandoc skip the field.
        places = [str(place) for place, name in enumerate(authors, start=1) if name in equal]
        fields.append(("author+an", "; ".join(f"{place}=equal" for place in places)))
    # Double braces keep the title's capitals ("GPU", "Klotski") whatever the style.
    fields.append(("title", "{" + latex(paper.title) + "}"))
    if paper.venue:
        # Braced whole, as the title: CSL processors (pandoc, citeproc) otherwise change the
        # case of a venue's name ("IEEE S&P" read as "IEEE s&p").
        fields.append((BIBTEX_VENUE_FIELDS[entry_type], "{" + latex(paper.venue) + "}"))
    if paper.publisher:
        # Braced whole as the venue: a publisher's name keeps its case ("ACM", "de Gruyter").
        fields.append(("publisher", "{" + latex(paper.publisher) + "}"))
    if paper.year:
        fields.append(("year", str(paper.year)))
    if paper.doi:
        fields.append(("doi", verbatim(paper.doi)))
    if pdf_url:
        fields.append(("url", verbatim(pdf_url)))
    if note := _note(paper):
        fields.append(("note", latex(note)))
    return write_bibtex_entry(entry_type, key, fields)


def write_bibtex_entry(entry_type: str, key: str, fields: list[tuple[str, str]]) -> str:
    """The entry as bibtexparser writes it in our layout (two-space indent, each value in
    braces but digits in a field that may be a number): written here, since building a
    bibtexparser Library and running its writing middleware for each of a year's thousand
    entries cost more than the rest of the entry. tests/publications/test_bibtex_writing.py
    holds the two to the same bytes. No value holds a line break (`one_line`)."""
    lines = [
        f"  {name} = {value}"
        if name in BARE_DIGITS and value.isdigit()
        else f"  {name} = {{{value}}}"
        for name, value in fields
    ]
    return f"@{entry_type}{{{key},\n" + ",\n".join(lines) + "\n}\n"


@lru_cache(maxsize=8192)
def bibtex_name(name: str) -> str:
    """A name BibTeX reads back whole: braced when a comma or "and" would split it. Written
    family first ("{\\'E}mile {\\~N}u{\\~n}ez" as "{\\~N}u{\\~n}ez, {\\'E}mile") when a given name
    begins with an accented letter: pandoc 2.17 reads a braced first word as a particle
    ("von"), not as the given name that BibTeX and bibtexparser read. Remembered: a
    year's export writes the same few hundred names thousands of times."""
    encoded = latex(name)
    words = name.casefold().split()
    if "and" in words or name.casefold() == "others":
        return "{" + encoded + "}"
    parts = split_name(name)
    family = " ".join(part for part in (parts.particle, parts.family) if part)
    if parts.suffix:  # BibTeX's three-part form, the one way it reads a suffix
        return latex(f"{family}, {parts.suffix}, {parts.given}")
    if "," in name:
        return "{" + encoded + "}"
    if any(latex(word).startswith("{") for word in parts.given.split()):
        return latex(", ".join(part for part in (family, parts.given) if part))
    return encoded


def one_line(text: str) -> str:
    """One line of text as every format writes it: no control characters, single spaces."""
    if text.isprintable():  # no control character, no line break: most titles and names
        return " ".join(text.split())
    return " ".join(strip_control_characters(text).split())


def latex(text: str) -> str:
    """One line of text as a BibTeX field's value: Latin letters with accents and LaTeX's
    special characters as LaTeX ("Gödel" as "G{\\"o}del"), everything else as it is."""
    text = one_line(text)
    if PLAIN_LATEX.fullmatch(text):
        return text
    return "".join(map(_latex_character, text))


@lru_cache(maxsize=8192)
def _latex_character(character: str) -> str:
    """The character as LaTeX when it is a Latin letter and a reader gets it back, else as it
    is (UTF-8): classic BibTeX needs a letter as LaTeX to abbreviate or sort a name, but reads
    a sign in UTF-8 as well, and pandoc 2.17 drops the text macros of signs ({\\textellipsis},
    {\\textsterling}) and of some letters ({\\DH}, {\\ng}).

    pylatexenc's table loses letters: Greek capitals become Latin ones ("Α" is written "A"),
    most Cyrillic letters vanish, "·" reads back as "˙". The property tests found these
    (tests/pages/test_properties_text_everywhere.py)."""
    if character in LATEX_LIGATURES:
        return LATEX_LIGATURES[character]
    if character in LATEX_SPECIALS:
        return str(LATEX_SPECIALS_ENCODER.unicode_to_latex(character))
    if character not in LATEX_LETTERS and not _accented_latin_letter(character):
        return character
    encoded = str(LATEX_ENCODER.unicode_to_latex(character))
    if encoded == character:
        return encoded
    if character not in DOTLESS:
        encoded = encoded.replace("\\i}", "i}").replace("\\j}", "j}")
    decoded = LATEX_READER.latex_to_text(encoded)
    same = unicodedata.normalize("NFC", decoded) == unicodedata.normalize("NFC", character)
    return encoded if same else character


def _accented_latin_letter(character: str) -> bool:
    """A Latin letter and its accents ("é" is "e" and an acute): what LaTeX writes {\\'e}."""
    decomposed = unicodedata.normalize("NFD", character)
    base, accents = decomposed[0], decomposed[1:]
    return (
        bool(accents)
        and base.isascii()
        and base.isalpha()
        and all(map(unicodedata.combining, accents))
    )


def verbatim(text: str) -> str:
    """DOIs and URLs are written as they are; a brace would end the field, and a backslash
    before the closing brace would hide it (neither belongs in a DOI or an address)."""
    return one_line(text).replace("{", "").replace("}", "").replace("\\", "")


def equal_contribution_note(equal: list[str]) -> str:
    """The equal-contribution marks in words, for a format without a field for them (CSL's
    `note`, schema.org's `creditText`): "Equal contribution: Yihao Zhao, Xiaoxiang Zhang." """
    return f"Equal contribution: {', '.join(equal)}." if equal else ""


def _note(publication: "Publication | BibtexPaper") -> str:
    """What BibTeX has no field for, in words the import reads back."""
    words = []
    if publication.type == Type.POSTER:
        words.append("Poster")
    if publication.type == Type.WORKSHOP_PAPER:
        words.append("Workshop paper")
    if publication.type == Type.PREPRINT:
        words.append("Preprint")
    if publication.status == Publication.Status.ACCEPTED:
        words.append("To appear")
    return ". ".join(words)


def ris(publications: Iterable[Publication], *, base_url: str) -> str:
    """An RIS file, the format EndNote, Zotero and Mendeley all import."""
    return RIS_LAYOUT.whole(ris_records(publications, base_url=base_url).values())


def ris_records(publications: Iterable[Publication], *, base_url: str) -> dict[int, str]:
    """Each publication's RIS record by pk, in the order given."""
    records = {}
    for row in _rows(publications):
        publication = row.publication
        tags = [("TY", RIS_TYPES[publication.type]), ("ID", row.key)]
        tags.append(("TI", publication.title))
        tags += [("AU", _family_first(name)) for name in row.authors]
        if publication.year:
            tags.append(("PY", str(publication.year)))
        if publication.venue and publication.type == Type.THESIS:
            # A thesis is in no container: its university publishes it (RIS's PB).
            tags.append(("PB", publication.venue.display_name))
        elif publication.venue:
            tags.append(("T2", publication.venue.display_name))
            tags.append(("J2", publication.venue.short_name))
        if publication.publisher:
            tags.append(("PB", publication.publisher))
        if publication.doi:
            tags.append(("DO", publication.doi))
        tags.append(("UR", base_url + publication.get_absolute_url()))
        if pdf := row.pdf_url:
            tags.append(("L1", pdf))
        if abstract := plain_text(publication.abstract_html):
            tags.append(("AB", abstract))
        if note := _note(publication):
            tags.append(("N1", note))
        tags.append(("ER", ""))
        # One line per tag: a line break inside a value would start a tag of its own.
        lines = [f"{tag}  - {one_line(value)}".rstrip() for tag, value in tags]
        records[publication.pk] = "".join(line + "\r\n" for line in lines)
    return records


def csl_json(publications: Iterable[Publication], *, base_url: str) -> str:
    """CSL-JSON, what citeproc, Pandoc and Zotero read."""
    return CSL_JSON_LAYOUT.whole(csl_json_items(publications, base_url=base_url).values())


def csl_json_items(publications: Iterable[Publication], *, base_url: str) -> dict[int, str]:
    """Each publication's CSL-JSON item by pk, in the order given, written as json.dumps
    writes it inside the file's array (indented by two spaces)."""
    items = {}
    for row in _rows(publications):
        publication = row.publication
        item: dict[str, object] = {
            "id": row.key,
            "type": CSL_TYPES[publication.type],
            "title": publication.title,
            "author": [csl_name(name) for name in row.authors],
        }
        if publication.year:
            item["issued"] = {"date-parts": [[publication.year]]}
        if publication.venue and publication.type == Type.THESIS:
            # A thesis is in no container: its university publishes it, and CSL styles print
            # the genre ("[Thesis]. Johns Hopkins University").
            item["publisher"] = publication.venue.display_name
        elif publication.venue:
            item["container-title"] = publication.venue.display_name
            item["container-title-short"] = publication.venue.short_name
        if publication.publisher:
            item["publisher"] = publication.publisher
        if publication.type in CSL_GENRES:
            item["genre"] = CSL_GENRES[publication.type]
        if publication.status == Publication.Status.ACCEPTED:
            item["status"] = "forthcoming"
        if publication.doi:
            item["DOI"] = publication.doi
        item["URL"] = base_url + publication.get_absolute_url()
        if abstract := plain_text(publication.abstract_html):
            item["abstract"] = abstract
        if note := equal_contribution_note(row.equal):
            item["note"] = note
        # JSON could escape control characters, but its readers would print them as they are.
        text = json.dumps(without_control_characters(item), ensure_ascii=False, indent=2)
        # No line of it is blank (a line break inside a value is escaped): each is indented.
        items[publication.pk] = textwrap.indent(text, "  ")
    return items


def csv_table(publications: Iterable[Publication], *, base_url: str) -> str:
    """A spreadsheet: one row per publication, authors separated by semicolons."""
    return CSV_LAYOUT.whole(csv_rows(publications, base_url=base_url).values())


def _csv_line(cells: list[str]) -> str:
    output = io.StringIO()
    csv.writer(output).writerow(cells)
    return output.getvalue()


# The header row, then one line per publication.
CSV_LAYOUT = Layout(
    head=_csv_line(CSV_COLUMNS), separator="", tail="", empty=_csv_line(CSV_COLUMNS)
)


def csv_rows(publications: Iterable[Publication], *, base_url: str) -> dict[int, str]:
    """Each publication's line of the spreadsheet by pk, in the order given."""
    output = io.StringIO()
    writer = csv.writer(output)
    lines = {}
    for row in _rows(publications):
        publication, venue = row.publication, row.publication.venue
        cells = [
            row.key,
            publication.title,
            "; ".join(row.authors),
            "; ".join(row.equal),
            publication.year or "",
            venue.short_name if venue else "",
            venue.full_name if venue else "",
            publication.get_type_display(),
            publication.get_status_display(),
            publication.doi,
            base_url + publication.get_absolute_url(),
            row.pdf_url,
            "; ".join(row.awards),
            publication.publisher,
        ]
        writer.writerow([_spreadsheet_safe(one_line(str(value))) for value in cells])
        lines[publication.pk] = output.getvalue()
        output.seek(0)
        output.truncate()
    return lines


def for_excel(pieces: Iterator[str]) -> Iterator[str]:
    """The CSV's pieces behind a UTF-8 byte-order mark, the one sign by which Excel on Windows
    reads a CSV as UTF-8 rather than cp1252 ("MÃ¼ller" for "Müller"). Only the `?excel=1`
    download has it: other programs (Python's csv, pandas, R) read the mark into the first
    column's name."""
    yield "\ufeff" + next(pieces, "")
    yield from pieces


def _spreadsheet_safe(value: str) -> str:
    """A cell a spreadsheet would run as a formula ("=HYPERLINK(…)") is quoted to stay text."""
    return f"'{value}" if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


def _family_first(name: str) -> str:
    """As RIS writes an author: "Steele, Guy L., Jr.", "van Beethoven, Ludwig"."""
    parts = split_name(name)
    family = " ".join(part for part in (parts.particle, parts.family) if part)
    return ", ".join(part for part in (family, parts.given, parts.suffix) if part) or name


def csl_name(name: str) -> dict[str, str]:
    """A name as CSL-JSON's parts ("family", "given", particle and suffix); one whose family
    name cannot be told is written whole ("literal")."""
    parts = split_name(name)
    if not parts.family:
        return {"literal": name}
    return {
        "family": parts.family,
        **without_empty(
            {
                "given": parts.given,
                "non-dropping-particle": parts.particle,
                "suffix": parts.suffix,
            }
        ),
    }


# How each export format writes its entries of a chunk of papers (by pk) and lays them out.
FORMATS: dict[str, tuple[Layout, Callable[[PublicationQuerySet, str], dict[int, str]]]] = {
    "bib": (BIBTEX_LAYOUT, lambda papers, base_url: bibtex_entries(papers)),
    "ris": (RIS_LAYOUT, lambda papers, base_url: ris_records(papers, base_url=base_url)),
    "json": (CSL_JSON_LAYOUT, lambda papers, base_url: csl_json_items(papers, base_url=base_url)),
    "csv": (CSV_LAYOUT, lambda papers, base_url: csv_rows(papers, base_url=base_url)),
}


def export_pieces(
    format: str, publications: PublicationQuerySet, *, base_url: str, chunk_size: int
) -> Iterator[str]:
    """The file of `format` holding `publications`, in pieces of `chunk_size` entries: what an
    export streams, in memory that does not grow with the number of papers (a department's
    200,000). The ids are read in the export's order through one cursor, `chunk_size` at a
    time; each chunk's papers, authors, links and awards are read by those ids in a fixed
    number of queries and written entry by entry. A paper deleted or withdrawn meanwhile is
    left out."""
    layout, write = FORMATS[format]
    ids = publications.values_list("pk", flat=True).iterator(chunk_size=chunk_size)

    def chunks() -> Iterator[list[str]]:
        while batch := list(islice(ids, chunk_size)):
            papers = Publication.objects.published().for_export().filter(pk__in=batch)
            entries = write(papers, base_url)
            yield [entries[pk] for pk in batch if pk in entries]

    return layout.pieces(chunks())
