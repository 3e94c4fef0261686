"""BibTeX in: read a .bib file, decide what each entry would do, import the entries staff pick.

Reading is bibtexparser's (v2). It splits a file into blocks and reports a broken block with its
line instead of stopping, and it splits author lists the way BibTeX does ("and", "Last, First",
braces, "and others"). LaTeX accents and braces become Unicode through pylatexenc, the decoder
bibtexparser uses for this.

Nothing is imported from a file that has a problem anywhere: a broken block can hide the entry
after it, so a half-read file is never trusted. Staff fix the file and upload it again.
"""

import copy
import re
from collections import defaultdict
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import cached_property

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
from django.db import transaction
from django.utils.text import slugify
from pylatexenc.latex2text import MacroTextSpec, get_default_latex_context_db
from simple_history.utils import bulk_create_with_history

from directory.addresses import hidden_address
from directory.identifiers import normalize_doi
from directory.text import fold
from directory.validation import row_problems, validate_rows
from directory.versions import record_snapshot
from people.models import ExternalPerson, Person
from people.names import normalize_name
from publications.bibtex.latex import LinearLatexDecoder
from publications.bibtex.limits import (
    ENTRY_START,
    Exceeded,
    check_entry_count,
    check_size,
    concatenated_parts,
    within_bounds,
)
from publications.bibtex.venues import FULL_NAME_MAX, KnownVenue, VenueMatcher
from publications.citation_keys import refresh_citation_key
from publications.models import Authorship, Publication, PublicationLink, Venue
from publications.search import refresh_search_text
from publications.services import AuthorNames, author_name_index

# The reason each version an import makes is recorded with, in the history pages.
IMPORTED = "Imported from BibTeX"

# Slugs the publication URLs use for pages of their own (/publications/feed/, export.bib).
RESERVED_SLUGS = {"export", "feed"}

PROCEEDINGS_TYPES = {"inproceedings", "conference", "proceedings"}
CHAPTER_TYPES = {"incollection", "inbook", "book"}
THESIS_TYPES = {"phdthesis", "mastersthesis", "thesis"}
PREPRINT_TYPES = {"unpublished", "preprint", "online"}
# Where an entry names its venue, most specific first.
VENUE_FIELDS = ("booktitle", "journal", "journaltitle", "howpublished", "school", "institution")
READ_FIELDS = {"title", "author", "year", "date", "doi", "url", "abstract", "note", *VENUE_FIELDS}

TITLE_MAX = Publication._meta.get_field("title").max_length
NAME_MAX = Authorship._meta.get_field("name").max_length
DOI_MAX = Publication._meta.get_field("doi").max_length

FOUR_DIGIT_YEAR = re.compile(r"\d{4}")


def _latex_decoder() -> LinearLatexDecoder:
    """pylatexenc's decoder set up as bibtexparser's own: math kept as written, \\url{x} is x;
    fed in pieces, so that time grows with length and not its square (publications/bibtex/latex.py)."""
    context = get_default_latex_context_db()
    context.add_context_category(
        "bibtex", prepend=True, macros=[MacroTextSpec("url", simplify_repl="%s")]
    )
    return LinearLatexDecoder(latex_context=context, math_mode="verbatim")


LATEX_DECODER = _latex_decoder()


# Reading ---------------------------------------------------------------------------------------


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
    problems: tuple[str, ...]
    warnings: tuple[str, ...]


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

    def __init__(self):
        super().__init__(allow_inplace_modification=True)

    @classmethod
    def metadata_key(cls) -> str:
        return "resolve_concatenations"

    def transform(self, library):
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


def parse_bibtex(text: str, *, progress: Progress | None = None) -> Bibliography:
    """Read BibTeX text; blocks that cannot be read become problems, never exceptions.

    The text is split into blocks first and every bound checked on them; a block past a bound
    is a problem and is neither expanded nor decoded, and past the file's bounds nothing is.
    Entries are then read in batches, each batch with its own copy of the @strings (the
    middlewares change blocks in place), and `progress` hears after each.
    """
    if too_large := check_size(text) or check_entry_count(text):
        return Bibliography(entries=(), problems=(_exceeded(too_large),))
    library, exceeded = within_bounds(bibtexparser.parse_string(text, parse_stack=[]))
    entries = library.entries
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

    problems, warnings = [], []
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

    year = None
    year_text = text("year")
    if not year_text and (date := text("date")):  # biblatex: "2024-05-01"
        year_text = found[0] if (found := FOUR_DIGIT_YEAR.findall(date)) else date
    if FOUR_DIGIT_YEAR.fullmatch(year_text):
        year = int(year_text)
    elif year_text:
        problems.append(f"the year “{year_text}” is not a year.")

    doi = normalize_doi(text("doi"))
    if len(doi) > DOI_MAX:
        problems.append(f"the DOI is longer than {DOI_MAX} characters.")
    url = text("url")
    if url and not _is_web_address(url):
        warnings.append(f"the URL “{url[:60]}” is not a web address and is left out.")
        url = ""

    abstract = values.get("abstract")
    read = BibEntry(
        key=entry.key,
        line=(entry.start_line or 0) + 1,
        entry_type=entry.entry_type.lower(),
        title=title,
        authors=authors,
        more_authors=more_authors,
        year=year,
        venue=next((text(name) for name in VENUE_FIELDS if text(name)), ""),
        doi=doi,
        url=url,
        abstract=abstract.strip() if isinstance(abstract, str) else "",
        note=text("note"),
        eprint_type=text("archiveprefix") or text("eprinttype"),
        problems=tuple(problems),
        warnings=tuple(warnings),
    )
    if read.problems:
        return read
    return replace(read, problems=_validation_problems(read))


def _validation_problems(entry: BibEntry) -> tuple[str, ...]:
    """What the models' own validation (directory/validation.py) refuses in the rows this entry
    would create, as the entry's problems: a control character, a year out of range, a URL too
    long. Checked here, before anything is stored, so the review names the entry and its line."""
    rows = [
        (
            Publication(title=entry.title, year=entry.year, doi=entry.doi, abstract=entry.abstract),
            ["title", "year", "doi", "abstract"],
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


# Reviewing -------------------------------------------------------------------------------------


class Decision(StrEnum):
    NEW = "new"
    UPDATE = "update"
    DUPLICATE = "duplicate"
    INVALID = "invalid"


@dataclass(frozen=True)
class VenueMatch:
    """The venue an entry maps to: an existing one, or the one an import would create."""

    venue: Venue | None
    short_name: str
    full_name: str
    kind: str
    # The venues the text could name equally well: the import decides on none of them.
    candidates: tuple[Venue, ...] = ()

    @property
    def is_new(self) -> bool:
        return self.venue is None

    @property
    def is_ambiguous(self) -> bool:
        return bool(self.candidates)

    @property
    def kind_label(self) -> str:
        return Venue.Kind(self.kind).label

    def __str__(self) -> str:
        if self.full_name and self.full_name != self.short_name:
            return f"{self.short_name} ({self.full_name})"
        return self.short_name


@dataclass(frozen=True)
class AuthorMatch:
    """An author of an entry, and whom the name names: a member, an external person, or
    nobody (publications.services.author_name_index)."""

    name: str
    member: Person | None
    external: ExternalPerson | None = None
    # Why nobody is linked, when several people go by the name (AuthorNames.why_unlinked).
    unlinked_reason: str = ""

    @classmethod
    def of(cls, name: str, people: AuthorNames) -> "AuthorMatch":
        who = people.get(normalize_name(name))
        if isinstance(who, ExternalPerson):
            return cls(name, None, who)
        return cls(name, who, unlinked_reason="" if who else people.why_unlinked(name))


@dataclass(frozen=True)
class Change:
    field: str
    label: str
    old: str
    new: str


@dataclass(frozen=True)
class ReviewedEntry:
    entry: BibEntry
    decision: Decision
    type: str
    status: str
    venue: VenueMatch | None
    authors: tuple[AuthorMatch, ...]
    existing: Publication | None = None
    reason: str = ""
    changes: tuple[Change, ...] = ()

    @property
    def importable(self) -> bool:
        return self.decision in (Decision.NEW, Decision.UPDATE)

    @property
    def moves_venue(self) -> bool:
        return any(change.field == "venue" for change in self.changes)

    @property
    def ticked_by_default(self) -> bool:
        """Moving a paper to another venue, or filing it under a venue the text does not name
        for sure, is an editor's decision: such entries wait for a tick."""
        return self.importable and not self.moves_venue and not self.venue_is_ambiguous

    @property
    def venue_is_ambiguous(self) -> bool:
        return self.venue is not None and self.venue.is_ambiguous

    def venue_notes(self) -> list[str]:
        """Why the entry is not ticked, in the words the review and the command print."""
        notes = []
        if self.venue_is_ambiguous:
            names = " or ".join(venue.display_name for venue in self.venue.candidates)
            notes.append(
                f"The venue “{self.entry.venue}” could be {names}; importing it creates the "
                f"new venue {self.venue.short_name}. Not ticked: check the venue first."
            )
        if self.importable and self.moves_venue:
            notes.append("Not ticked: it would move an existing paper to another venue.")
        return notes

    @property
    def type_label(self) -> str:
        return Publication.Type(self.type).label

    def describe(self) -> str:
        """What importing it would do, in one line: the same words in the admin and the shell."""
        match self.decision:
            case Decision.NEW:
                return "New publication."
            case Decision.UPDATE:
                changes = "; ".join(
                    f"{change.label} {change.old or '(none)'} → {change.new}"
                    for change in self.changes
                )
                return f"Likely an update of “{self.existing}” ({self.reason}): {changes}."
            case Decision.DUPLICATE:
                return f"Duplicate of {self.reason}: nothing to import."
        return "Cannot be imported: " + " ".join(self.entry.problems)


@dataclass(frozen=True)
class Review:
    entries: tuple[ReviewedEntry, ...]
    problems: tuple[Problem, ...]

    @cached_property
    def can_import(self) -> bool:
        """Cached: the review page asks once per row, of up to 25,000 rows."""
        return not self.problems and not any(
            item.decision is Decision.INVALID for item in self.entries
        )

    @property
    def importable_keys(self) -> list[str]:
        return [item.entry.key for item in self.entries if item.importable]

    @property
    def ticked_keys(self) -> list[str]:
        """What is imported unless staff choose: never a move to another venue."""
        return [item.entry.key for item in self.entries if item.ticked_by_default]

    @property
    def all_problems(self) -> list[str]:
        """File problems, then each entry's, with its line and key."""
        messages = [str(problem) for problem in self.problems]
        for item in self.entries:
            for message in item.entry.problems:
                messages.append(str(Problem(item.entry.line, item.entry.key, message)))
        return messages

    def summary(self) -> str:
        counts = defaultdict(int)
        for item in self.entries:
            counts[item.decision] += 1
        parts = [
            f"{len(self.entries)} entr{'y' if len(self.entries) == 1 else 'ies'}",
            f"{counts[Decision.NEW]} new",
            f"{counts[Decision.UPDATE]} likely update{'s' if counts[Decision.UPDATE] != 1 else ''}",
            f"{counts[Decision.DUPLICATE]} duplicate{'s' if counts[Decision.DUPLICATE] != 1 else ''}",
        ]
        problems = len(self.all_problems)
        if problems:
            parts.append(f"{problems} problem{'s' if problems != 1 else ''}")
        return ", ".join(parts) + "."


def review_bibliography(*, bibliography: Bibliography) -> Review:
    """What importing each entry would do, compared with every publication, venue and member.

    An entry is a duplicate of a publication with the same DOI, or with the same normalized title
    and year; it is a likely update when it would change that publication's year, venue, DOI or
    type, or when only its title matches (a preprint now published, say). Runs three queries,
    whatever the number of entries.
    """
    existing = list(Publication.objects.select_related("venue").order_by("pk"))
    by_doi = {
        publication.doi.casefold(): publication for publication in existing if publication.doi
    }
    by_title_year, by_title = {}, {}
    for publication in existing:
        title = normalize_title(publication.title)
        by_title_year.setdefault((title, publication.year), publication)
        by_title.setdefault(title, publication)
    venues = VenueIndex(Venue.objects.all())
    people = author_name_index()

    seen_in_file: dict[object, str] = {}
    reviewed = []
    for entry in bibliography.entries:
        venue = venues.match(entry)
        publication_type = _publication_type(entry, venue.kind if venue else None)
        item = {
            "entry": entry,
            "type": publication_type,
            "status": _status(entry),
            "venue": venue,
            "authors": tuple(AuthorMatch.of(name, people) for name in entry.authors),
        }
        title = normalize_title(entry.title)
        doi = entry.doi.casefold()
        if entry.problems:
            reviewed.append(ReviewedEntry(decision=Decision.INVALID, **item))
            continue
        if earlier := (doi and seen_in_file.get(doi)) or seen_in_file.get((title, entry.year)):
            reason = f"entry “{earlier}” above"
            reviewed.append(ReviewedEntry(decision=Decision.DUPLICATE, reason=reason, **item))
            continue
        seen_in_file[(title, entry.year)] = entry.key
        if doi:
            seen_in_file[doi] = entry.key

        if doi and doi in by_doi:
            match, why = by_doi[doi], "same DOI"
        elif (title, entry.year) in by_title_year:
            match, why = by_title_year[(title, entry.year)], "same title and year"
        elif title in by_title:
            match, why = by_title[title], "same title"
        else:
            reviewed.append(ReviewedEntry(decision=Decision.NEW, **item))
            continue
        changes = _changes(match, entry=entry, venue=venue, publication_type=publication_type)
        if changes:
            reviewed.append(
                ReviewedEntry(
                    decision=Decision.UPDATE, existing=match, reason=why, changes=changes, **item
                )
            )
        else:
            reason = f"“{match}” ({why})"
            reviewed.append(
                ReviewedEntry(decision=Decision.DUPLICATE, existing=match, reason=reason, **item)
            )
    return Review(entries=tuple(reviewed), problems=bibliography.problems)


def normalize_title(title: str) -> str:
    """Titles compared without case, accents, punctuation or spacing."""
    return " ".join(re.sub(r"[\W_]+", " ", fold(title)).split())


def _changes(
    publication: Publication, *, entry: BibEntry, venue: VenueMatch | None, publication_type: str
) -> tuple[Change, ...]:
    """Only what the entry says and the publication lacks or says differently."""
    changes = []
    if entry.year and entry.year != publication.year:
        changes.append(Change("year", "year", str(publication.year or ""), str(entry.year)))
    if venue and (venue.is_new or venue.venue.pk != publication.venue_id):
        changes.append(Change("venue", "venue", str(publication.venue or ""), str(venue)))
    if entry.doi and entry.doi.casefold() != publication.doi.casefold():
        changes.append(Change("doi", "DOI", publication.doi, entry.doi))
    if publication_type != Publication.Type.OTHER and publication_type != publication.type:
        old, new = publication.get_type_display(), Publication.Type(publication_type).label
        changes.append(Change("type", "type", old, new))
    return tuple(changes)


def _status(entry: BibEntry) -> str:
    note = entry.note.casefold()
    if "to appear" in note or "accepted" in note:
        return Publication.Status.ACCEPTED
    return Publication.Status.PUBLISHED


def _publication_type(entry: BibEntry, venue_kind: str | None) -> str:
    note = entry.note.casefold()
    if "poster" in note:
        return Publication.Type.POSTER
    if entry.entry_type in PROCEEDINGS_TYPES:
        if venue_kind == Venue.Kind.WORKSHOP or "workshop" in note:
            return Publication.Type.WORKSHOP_PAPER
        return Publication.Type.CONFERENCE_PAPER
    if entry.entry_type in CHAPTER_TYPES:
        return Publication.Type.BOOK_CHAPTER
    if entry.entry_type in THESIS_TYPES:
        return Publication.Type.THESIS
    if (
        venue_kind == Venue.Kind.PREPRINT_SERVER
        or entry.eprint_type
        or "preprint" in note
        or entry.entry_type in PREPRINT_TYPES
    ):
        return Publication.Type.PREPRINT
    if entry.entry_type == "article":
        return Publication.Type.JOURNAL_ARTICLE
    return Publication.Type.OTHER


class VenueIndex:
    """The import's view of publications.bibtex.venues: the site's venues, with their aliases,
    matched by a `VenueMatcher`, and each answer turned back into a Venue or a new one."""

    def __init__(self, venues: Iterable[Venue]):
        self.venues = {venue.pk: venue for venue in venues}
        self.matcher = VenueMatcher(
            KnownVenue(
                key=venue.pk,
                short_name=venue.short_name,
                full_name=venue.full_name,
                aliases=venue.alias_list,
                kind=venue.kind,
            )
            for venue in self.venues.values()
        )

    def candidates(self, text: str) -> list[Venue]:
        """The venues `text` names: one is a match, more are ambiguous, none is a new one."""
        return [self.venues[known.key] for known in self.matcher.candidates(text)]

    def match(self, entry: BibEntry) -> VenueMatch | None:
        text = entry.venue or entry.eprint_type
        if not text:
            return None
        found = self.candidates(text)
        if len(found) == 1:
            (venue,) = found
            return VenueMatch(venue, venue.short_name, venue.full_name, venue.kind)
        proposed = self.matcher.proposed_venue(text, default_kind=_entry_venue_kind(entry))
        if proposed is None:
            return None
        return VenueMatch(
            venue=None,
            short_name=proposed.short_name,
            full_name=proposed.full_name,
            kind=proposed.kind,
            candidates=tuple(found),
        )


def _entry_venue_kind(entry: BibEntry) -> str | None:
    """What the entry's type says a venue it names is; None when it says nothing."""
    if entry.eprint_type or entry.entry_type in PREPRINT_TYPES:
        return Venue.Kind.PREPRINT_SERVER
    if entry.entry_type in PROCEEDINGS_TYPES:
        return Venue.Kind.CONFERENCE
    if entry.entry_type == "article":
        return Venue.Kind.JOURNAL
    return None


# Importing -------------------------------------------------------------------------------------


class ImportRefused(Exception):
    """Nothing was imported; `review` says why, entry by entry."""

    def __init__(self, message: str, *, review: Review):
        super().__init__(message)
        self.review = review


@dataclass(frozen=True)
class ImportResult:
    review: Review
    created: tuple[Publication, ...]
    updated: tuple[Publication, ...]
    venues: tuple[Venue, ...]


def import_bibtex(
    *, text: str, keys: Collection[str] | None = None, progress: Progress | None = None
) -> ImportResult:
    """Import the entries with these keys (those ticked by default when None: never a move to
    another venue), or none.

    The text is read again here, and reviewed again inside the transaction that writes, so what
    is imported is decided from the file and the database as they are now, never from an
    earlier page. Reading, the long part, happens before the transaction, so that `progress`
    can report it where other connections see it.
    """
    bibliography = parse_bibtex(text, progress=progress)
    if progress:
        progress("Saving", 0, len(bibliography.entries))
    with transaction.atomic():
        review = review_bibliography(bibliography=bibliography)
        return _import_reviewed(review, keys=keys, progress=progress)


# Entries saved between two reports of progress while saving (about 5 s on a busy machine).
SAVE_BATCH = 100


def _import_reviewed(
    review: Review, *, keys: Collection[str] | None, progress: Progress | None = None
) -> ImportResult:
    if not review.can_import:
        raise ImportRefused(
            "Nothing was imported: the file has problems. Fix them and upload it again.",
            review=review,
        )
    chosen = set(review.ticked_keys if keys is None else keys)
    by_key = {item.entry.key: item for item in review.entries}
    stale = sorted(key for key in chosen if key not in by_key or not by_key[key].importable)
    if stale:
        raise ImportRefused(
            "Nothing was imported: these entries are no longer new or updates: "
            + ", ".join(stale)
            + ". Review them again.",
            review=review,
        )
    if not chosen:
        raise ImportRefused("Nothing was imported: every entry was left out.", review=review)

    taken_slugs = set(Publication.objects.values_list("slug", flat=True)) | RESERVED_SLUGS
    new_venues: dict[str, Venue] = {}
    created, updated = [], []
    for number, item in enumerate(review.entries, start=1):
        if progress and number % SAVE_BATCH == 0:
            progress("Saving", number, len(review.entries))
        if item.entry.key not in chosen:
            continue
        venue = _venue_for(item.venue, new_venues)
        if item.decision is Decision.NEW:
            created.append(_create(item, venue=venue, taken_slugs=taken_slugs))
        else:
            updated.append(_update(item, venue=venue))
    if progress:  # the last report, still inside the transaction: it may yet refuse to commit
        progress("Saving", len(review.entries), len(review.entries))
    return ImportResult(
        review=review,
        created=tuple(created),
        updated=tuple(updated),
        venues=tuple(new_venues.values()),
    )


def _venue_for(match: VenueMatch | None, new_venues: dict[str, Venue]) -> Venue | None:
    if match is None:
        return None
    if match.venue is not None:
        return match.venue
    key = match.short_name.casefold()
    if key not in new_venues:
        venue = Venue.objects.filter(short_name__iexact=match.short_name).first()
        if venue is None:
            venue = Venue(short_name=match.short_name, full_name=match.full_name, kind=match.kind)
            venue._change_reason = IMPORTED
            venue.save()
        new_venues[key] = venue
    return new_venues[key]


def _create(item: ReviewedEntry, *, venue: Venue | None, taken_slugs: set[str]) -> Publication:
    entry = item.entry
    publication = Publication(
        title=entry.title,
        slug=_unique_slug(entry.title, taken_slugs),
        year=entry.year,
        venue=venue,
        type=item.type,
        status=item.status,
        doi=entry.doi,
        abstract=entry.abstract,
    )
    publication._change_reason = IMPORTED
    publication.save()
    authorships = [
        Authorship(
            publication=publication,
            position=position,
            name=author.name,
            person=author.member,
            external=author.external,
        )
        for position, author in enumerate(item.authors, start=1)
    ]
    validate_rows(authorships)  # bulk_create sends no pre_save: the models' checks run here
    bulk_create_with_history(authorships, Authorship, default_change_reason=IMPORTED)
    # nor post_save, which would do these
    refresh_citation_key(publication.pk)
    refresh_search_text(publication.pk)
    if entry.url:
        is_pdf = entry.url.lower().endswith(".pdf")
        link = PublicationLink(
            publication=publication,
            position=1,
            kind=PublicationLink.Kind.PDF if is_pdf else PublicationLink.Kind.OTHER,
            url=entry.url,
        )
        link._change_reason = IMPORTED
        link.save()
    record_snapshot(publication)  # its first version, with the authors and link just made
    return publication


def _update(item: ReviewedEntry, *, venue: Venue | None) -> Publication:
    publication = item.existing
    values = {"year": item.entry.year, "venue": venue, "doi": item.entry.doi, "type": item.type}
    for change in item.changes:
        setattr(publication, change.field, values[change.field])
    publication._change_reason = IMPORTED
    publication.save(update_fields=[change.field for change in item.changes])
    record_snapshot(publication)
    return publication


def _unique_slug(title: str, taken: set[str]) -> str:
    slug = slugify(title)
    if len(slug) > 60:
        slug = slug[:60].rsplit("-", 1)[0]
    base = slug or "publication"
    slug, number = base, 2
    while slug in taken or hidden_address(Publication.url_name, slug):
        slug, number = f"{base}-{number}", number + 1
    taken.add(slug)
    return slug
