"""Reading a .bib file: bibtexparser's blocks, within the bounds of limits.py, decoded from LaTeX
(latex.py), each entry checked as the models would check its rows.

Reading is bibtexparser's (v2). It splits a file into blocks and reports a broken block with its
line instead of stopping, and it splits author lists the way BibTeX does ("and", "Last, First",
braces, "and others"). LaTeX accents and braces become Unicode through pylatexenc, the decoder
bibtexparser uses for this.

Nothing is imported from a file that has a problem anywhere: a broken block can hide the entry
after it, so a half-read file is never trusted. Staff fix the file and upload it again.
"""

import copy
import re
from collections.abc import Callable
from dataclasses import dataclass, replace

import bibtexparser
from bibtexparser import middlewares
from bibtexparser.library import Library
from bibtexparser.middlewares.middleware import LibraryMiddleware
from bibtexparser.middlewares.names import (
    InvalidNameError,
    NameParts,
)
from bibtexparser.model import (
    DuplicateBlockKeyBlock,
    DuplicateFieldKeyBlock,
    Entry,
    MiddlewareErrorBlock,
    ParsingFailedBlock,
    String,
)
from django.core.exceptions import ValidationError
from django.core.validators import URLValidator
from django.db.models import Field, Model

from base.identifiers import arxiv_id, normalize_doi
from base.validation import row_problems
from publications.bibtex.latex import LATEX_DECODER
from publications.bibtex.limits import (
    ENTRY_START,
    Exceeded,
    check_entry_count,
    check_size,
    concatenated_parts,
    within_bounds,
)
from publications.bibtex.venues import FULL_NAME_MAX
from publications.models import Authorship, Publication, PublicationLink, Venue

# Where an entry names its venue, most specific first.
VENUE_FIELDS = ("booktitle", "journal", "journaltitle", "howpublished", "school", "institution")
READ_FIELDS = {
    *("title", "author", "year", "date", "doi", "url", "abstract", "note", "publisher"),
    *("eprint", "archiveprefix", "eprinttype"),
    *VENUE_FIELDS,
}
# "arXiv preprint arXiv:1909.08053", "CoRR abs/1909.08053", "arXiv e-prints, 1412.6980": a
# venue text that cites an arXiv paper, with its id.
ARXIV_CITED = re.compile(
    r"^(?:arxiv|corr)\b.*?(?P<id>\d{4}\.\d{4,5}|[a-z]+(?:-[a-z]+)*(?:\.[A-Z]{2})?/\d{7})",
    re.IGNORECASE,
)


def _max_length(model: type[Model], name: str) -> int:
    field = model._meta.get_field(name)
    assert isinstance(field, Field) and field.max_length, f"{model.__name__}.{name} is bounded"
    return field.max_length


TITLE_MAX = _max_length(Publication, "title")
NAME_MAX = _max_length(Authorship, "name")
DOI_MAX = _max_length(Publication, "doi")

FOUR_DIGIT_YEAR = re.compile(r"\d{4}")


@dataclass(frozen=True)
class Problem:
    """A block of the file that cannot be imported, with where it is."""

    line: int | None
    key: str
    message: str

    def __str__(self) -> str:
        where = [f"line {self.line}"] if self.line else []
        where += [f"entry “{self.key}”"] if self.key else []
        if not where:
            return self.message
        place = ", ".join(where)
        return f"{place[0].upper()}{place[1:]}: {self.message}"


@dataclass(frozen=True)
class BibEntry:
    """One entry as read: text already in Unicode, names in printed order."""

    key: str
    line: int
    entry_type: str
    title: str
    authors: tuple[str, ...]
    more_authors: bool  # the list ended in "and others"
    year: int | None
    venue: str
    doi: str
    url: str
    abstract: str
    note: str
    eprint_type: str
    publisher: str
    problems: tuple[str, ...]
    warnings: tuple[str, ...]
    # Read from what Crossref, arXiv, ORCID, dblp and OpenAlex answer (publications/identifiers/):
    # the arXiv id without its version, a PDF's address, and each author's ORCID iD in author
    # order ("" where none is given).
    arxiv_id: str = ""
    pdf_url: str = ""
    orcids: tuple[str, ...] = ()


# What a long import tells its progress page: a phase, entries done, entries in all.
Progress = Callable[[str, int, int], None]
# Entries read between two reports of progress.
READ_BATCH = 1000


@dataclass(frozen=True)
class Bibliography:
    entries: tuple[BibEntry, ...]
    problems: tuple[Problem, ...]


class ResolveConcatenations(LibraryMiddleware):
    """`booktitle = nsdi # " (NSDI '24)"`: BibTeX's `#` joins strings, which bibtexparser keeps
    as written. Parts are braced or quoted text, numbers and @string names; a value naming an
    unknown @string is left as it is, and reported as a problem of its entry."""

    def __init__(self) -> None:
        super().__init__(allow_inplace_modification=True)

    @classmethod
    def metadata_key(cls) -> str:
        return "resolve_concatenations"

    def transform(self, library: Library) -> Library:
        strings = {key.casefold(): string.value for key, string in library.strings_dict.items()}
        for entry in library.entries:
            for field in entry.fields:
                value = field.value
                if isinstance(value, str) and "#" in value:
                    joined = _join_parts(value, strings)
                    if joined is not None:
                        field.value = "{" + joined + "}"
        return library


def _join_parts(value: str, strings: dict[str, str]) -> str | None:
    parts = concatenated_parts(value)
    if len(parts) == 1:
        return None  # a "#" inside braces or quotes is text
    joined = []
    for part in parts:
        if part.isdigit():
            joined.append(part)
        elif len(part) >= 2 and part[0] + part[-1] in ("{}", '""'):
            joined.append(part[1:-1])
        elif (string := strings.get(part.casefold())) is not None:
            joined.append(string.strip()[1:-1] if string.strip()[:1] in '{"' else string)
        else:
            return None
    return "".join(joined)


# What a child never takes from the entry it cross-references: what names the parent itself
# (a proceedings volume's own DOI, address on the web, title as a title), and dblp's bookkeeping.
NOT_INHERITED = frozenset(
    {
        *("title", "author", "doi", "url", "abstract", "note", "eprint", "archiveprefix"),
        *("eprinttype", "crossref", "ids", "biburl", "bibsource", "timestamp", "isbn", "pages"),
    }
)


def with_crossrefs_folded(entries: list[Entry]) -> list[Entry]:
    """dblp's "with crossref" export gives each paper `crossref = {DBLP:conf/osdi/2022}` and
    the file the `@proceedings{DBLP:conf/osdi/2022, ...}` it names. That parent is a volume,
    not a paper: it is left out, and a child takes from it each field it lacks (booktitle,
    year, publisher, editor, series, address...), the parent's title as its booktitle, as
    BibTeX and biber do. A crossref to an entry not in the file changes nothing."""
    by_key = {entry.key.casefold(): entry for entry in entries}
    parents: set[str] = set()
    folded: list[Entry] = []
    for entry in entries:
        fields = {field.key.casefold(): field for field in entry.fields}
        reference = fields.get("crossref")
        parent = by_key.get(_plain(str(reference.value)).casefold()) if reference else None
        if parent is None or parent is entry:
            folded.append(entry)
            continue
        parents.add(parent.key.casefold())
        child = copy.copy(entry)
        child.fields = list(entry.fields)
        for field in parent.fields:
            name = field.key.casefold()
            if name not in fields and name not in NOT_INHERITED:
                child.fields.append(copy.deepcopy(field))
                fields[name] = field
        parent_title = next((f for f in parent.fields if f.key.casefold() == "title"), None)
        if parent_title is not None and "booktitle" not in fields:
            booktitle = copy.deepcopy(parent_title)
            booktitle.key = "booktitle"
            child.fields.append(booktitle)
        folded.append(child)
    return [entry for entry in folded if entry.key.casefold() not in parents]


def _plain(value: str) -> str:
    """A raw value without its braces or quotes."""
    value = value.strip()
    while len(value) >= 2 and value[0] + value[-1] in ("{}", '""'):
        value = value[1:-1].strip()
    return value


def parse_bibtex(text: str, *, progress: Progress | None = None) -> Bibliography:
    """Read BibTeX text; blocks that cannot be read become problems, never exceptions.

    The text is split into blocks first and every bound checked on them; a block past a bound
    is a problem and is neither expanded nor decoded, and past the file's bounds nothing is.
    Entries are then read in batches, each batch with its own copy of the @strings (the
    middlewares change blocks in place), and `progress` hears after each.
    """
    if too_large := check_size(text) or check_entry_count(text):
        return Bibliography(entries=(), problems=(_exceeded(too_large),))
    # bibtexparser re-exports parse_string without saying so (mypy --strict notices); called
    # through the package, where tests replace it.
    parsed = bibtexparser.parse_string(text, parse_stack=[])  # type: ignore[attr-defined, unused-ignore]
    library, exceeded = within_bounds(parsed)
    entries = with_crossrefs_folded(library.entries)
    strings = library.strings
    others = [block for block in library.blocks if not isinstance(block, Entry | String)]
    problems = [_exceeded(item) for item in exceeded]
    read: list[BibEntry] = []
    for start in range(0, max(len(entries), 1), READ_BATCH):
        batch = [*map(copy.deepcopy, strings), *entries[start : start + READ_BATCH]]
        batch_library = Library(blocks=batch + (others if start == 0 else []))
        for middleware in (
            middlewares.ResolveStringReferencesMiddleware(),
            ResolveConcatenations(),
            middlewares.RemoveEnclosingMiddleware(),
            middlewares.NormalizeFieldKeys(),
            # Names are split before decoding so braces still protect "{Barnes and Noble}".
            middlewares.SeparateCoAuthors(),
            middlewares.SplitNameParts(),
            middlewares.LatexDecodingMiddleware(decoder=LATEX_DECODER),
        ):
            batch_library = middleware.transform(library=batch_library)
        problems += map(_problem, batch_library.failed_blocks)
        read += map(_read_entry, batch_library.entries)
        if progress:
            progress("Reading the entries", min(start + READ_BATCH, len(entries)), len(entries))
    return Bibliography(entries=tuple(read), problems=tuple(sorted(problems, key=_in_file_order)))


def _exceeded(exceeded: Exceeded) -> Problem:
    return Problem(line=exceeded.line, key=exceeded.key, message=exceeded.message)


def _in_file_order(problem: Problem) -> int:
    return problem.line or 0


def _problem(block: ParsingFailedBlock) -> Problem:
    line = block.start_line + 1 if block.start_line is not None else None
    entry = block.ignore_error_block
    key = entry.key if isinstance(entry, Entry) else ""
    if not key and (start := ENTRY_START.search(block.raw or "")):
        key = start["key"]
    error = block.error
    if isinstance(block, DuplicateBlockKeyBlock):
        message = "an earlier entry has the same key."
    elif isinstance(block, DuplicateFieldKeyBlock):
        fields = ", ".join(sorted(block.duplicate_keys))
        message = f"has the field {fields} more than once."
    elif isinstance(block, MiddlewareErrorBlock) and isinstance(error, InvalidNameError):
        message = f"cannot read the author “{error.name}”: {error.reason.lower()}."
    elif isinstance(block, MiddlewareErrorBlock):
        message = f"cannot be read: {error}"
    else:
        reason = getattr(error, "abort_reason", "") or str(error)
        message = f"is not valid BibTeX. {reason.strip()}"
    return Problem(line=line, key=key, message=message)


def _read_entry(entry: Entry) -> BibEntry:
    values = {field.key: field.value for field in entry.fields}

    def text(name: str) -> str:
        value = values.get(name)
        return " ".join(value.split()) if isinstance(value, str) else ""

    problems: list[str] = []
    warnings: list[str] = []
    for field in entry.fields:
        # A value still unenclosed after the parse stack names an @string nobody defined.
        unresolved = field.enclosing == "no-enclosing" and not str(field.value).isdigit()
        if field.key in READ_FIELDS and unresolved:
            problems.append(f"{field.key} uses “{field.value}”, which no @string defines.")
    authors, more_authors = _authors(values.get("author") or [])
    title = text("title")
    if not title:
        problems.append("has no title.")
    elif len(title) > TITLE_MAX:
        problems.append(f"the title is longer than {TITLE_MAX} characters.")
    for name in authors:
        if len(name) > NAME_MAX:
            problems.append(f"the author name “{name[:40]}…” is longer than {NAME_MAX} characters.")
    if more_authors:
        warnings.append(
            f"the author list ends in “and others”: only the {len(authors)} named are imported."
        )
    elif not authors:
        warnings.append("has no authors.")

    year, year_problem = _year(text("year"), text("date"))
    problems += year_problem

    doi = normalize_doi(text("doi"))
    if len(doi) > DOI_MAX:
        problems.append(f"the DOI is longer than {DOI_MAX} characters.")
    url = text("url")
    if url and not _is_web_address(url):
        warnings.append(f"the URL “{url[:60]}” is not a web address and is left out.")
        url = ""

    venue = next((text(name) for name in VENUE_FIELDS if text(name)), "")
    eprint_type, arxiv = _arxiv(
        eprint_type=text("archiveprefix") or text("eprinttype"),
        eprint=text("eprint"),
        venue=venue,
        doi=doi,
        url=url,
    )
    if arxiv and url and arxiv_id(url).casefold() == arxiv.casefold():
        url = ""  # the arXiv link names it
    abstract = values.get("abstract")
    read = BibEntry(
        key=entry.key,
        line=(entry.start_line or 0) + 1,
        entry_type=entry.entry_type.lower(),
        title=title,
        authors=authors,
        more_authors=more_authors,
        year=year,
        venue=venue,
        doi=doi,
        url=url,
        abstract=abstract.strip() if isinstance(abstract, str) else "",
        note=text("note"),
        eprint_type=eprint_type,
        publisher=text("publisher"),
        problems=tuple(problems),
        warnings=tuple(warnings),
        arxiv_id=arxiv,
    )
    if read.problems:
        return read
    return replace(read, problems=_validation_problems(read))


def _arxiv(*, eprint_type: str, eprint: str, venue: str, doi: str, url: str) -> tuple[str, str]:
    """The entry's eprint type and arXiv id (without its version), from where BibTeX files
    give it: `eprint = {1412.6980}` with `archivePrefix = {arXiv}` (or biblatex's
    `eprinttype`), a journal "arXiv preprint arXiv:1909.08053", arXiv's DOI, or an arXiv
    address as its URL."""
    if eprint and eprint_type.casefold() == "arxiv" and (found := arxiv_id(eprint)):
        return eprint_type, found
    if cited := ARXIV_CITED.match(venue):
        return eprint_type or "arXiv", arxiv_id(cited["id"])
    return eprint_type, arxiv_id(doi) or arxiv_id(url)


def _year(year_text: str, date: str) -> tuple[int | None, list[str]]:
    """The year, from `year` or else biblatex's `date` ("2024-05-01"); a problem when it is
    not four digits."""
    if not year_text and date:
        year_text = found[0] if (found := FOUR_DIGIT_YEAR.findall(date)) else date
    if FOUR_DIGIT_YEAR.fullmatch(year_text):
        return int(year_text), []
    if year_text:
        return None, [f"the year “{year_text}” is not a year."]
    return None, []


def _validation_problems(entry: BibEntry) -> tuple[str, ...]:
    """What the models' own validation (base/validation.py) refuses in the rows this entry
    would create, as the entry's problems: a control character, a year out of range, a URL too
    long. Checked here, before anything is stored, so the review names the entry and its line."""
    rows = [
        (
            Publication(
                title=entry.title,
                year=entry.year,
                doi=entry.doi,
                abstract=entry.abstract,
                publisher=entry.publisher,
            ),
            ["title", "year", "doi", "abstract", "publisher"],
        ),
        (Venue(full_name=entry.venue[:FULL_NAME_MAX]), ["full_name"]),
        *((Authorship(name=name), ["name"]) for name in entry.authors),
        *([(PublicationLink(url=entry.url), ["url"])] if entry.url else []),
    ]
    return tuple(problem for row, fields in rows for problem in row_problems(row, fields=fields))


def _authors(parts_list: list[NameParts]) -> tuple[tuple[str, ...], bool]:
    names, more = [], False
    for parts in parts_list:
        name = _decoded_name(parts)
        if name.casefold() == "others":
            more = True
        elif name:
            names.append(name)
    return tuple(names), more


def _decoded_name(parts: NameParts) -> str:
    """ "Müller, Hans" as printed: "Hans Müller"; each word decoded from LaTeX."""

    def decode(words: list[str]) -> list[str]:
        return [LATEX_DECODER.latex_to_text(word).strip() for word in words]

    decoded = NameParts(
        first=decode(parts.first),
        von=decode(parts.von),
        last=decode(parts.last),
        jr=decode(parts.jr),
    )
    return " ".join(decoded.merge_first_name_first.split())


def _is_web_address(url: str) -> bool:
    try:
        URLValidator(schemes=["http", "https"])(url)
    except ValidationError:
        return False
    return True
