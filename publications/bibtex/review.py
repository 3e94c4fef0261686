"""What importing each entry read from a file would do: new, a likely update, a duplicate, or
invalid; which venue it names (venues.py through VenueIndex) and which people its authors are."""

import re
from collections import defaultdict
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import cached_property

from base.identifiers import arxiv_id
from base.text import fold
from people.models import ExternalPerson, Person
from people.names import normalize_name
from publications.bibtex.reading import BibEntry, Bibliography, Problem
from publications.bibtex.venues import KnownVenue, VenueMatcher
from publications.models import Publication, PublicationLink, Venue
from publications.services import AuthorNames, author_name_index

PROCEEDINGS_TYPES = {"inproceedings", "conference", "proceedings"}
CHAPTER_TYPES = {"incollection", "inbook", "book"}
THESIS_TYPES = {"phdthesis", "mastersthesis", "thesis"}
PREPRINT_TYPES = {"unpublished", "preprint", "online"}


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
        return str(Venue.Kind(self.kind).label)

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
    def of(
        cls, name: str, people: AuthorNames, by_orcid: Person | ExternalPerson | None = None
    ) -> "AuthorMatch":
        """`by_orcid`: whom the author's ORCID iD, where the source gives one, names; it
        decides before the name does."""
        who = by_orcid or people.get(normalize_name(name))
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
        """Changing a paper staff already curated, or filing one under a venue the text does
        not name for sure, is an editor's decision: such entries wait for a tick. Only new
        papers under a venue named for sure are ticked."""
        return self.decision is Decision.NEW and not self.venue_is_ambiguous

    @property
    def venue_is_ambiguous(self) -> bool:
        return self.venue is not None and self.venue.is_ambiguous

    def venue_notes(self) -> list[str]:
        """Why the entry is not ticked, in the words the review and the command print."""
        notes = []
        if self.venue is not None and self.venue.is_ambiguous:
            names = " or ".join(venue.display_name for venue in self.venue.candidates)
            notes.append(
                f"The venue “{self.entry.venue}” could be {names}; importing it creates the "
                f"new venue {self.venue.short_name}. Not ticked: check the venue first."
            )
        if self.decision is Decision.UPDATE:
            notes.append(
                "Not ticked: it changes a paper already on the site"
                + (", moving it to another venue" if self.moves_venue else "")
                + ". Tick it to apply the change."
            )
        return notes

    @property
    def type_label(self) -> str:
        return str(Publication.Type(self.type).label)

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
        """What is imported unless staff choose: new papers only, never a change to one."""
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
        counts: defaultdict[Decision, int] = defaultdict(int)
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

    An entry is a duplicate of a publication with the same DOI, the same arXiv id (in its
    links), or the same normalized title and year; it is a likely update when it would change
    that publication's year, venue, DOI or type, or when only its title matches (a preprint now
    published, say). Runs four queries, whatever the number of entries, and two more when
    entries give authors' ORCID iDs.
    """
    existing = list(Publication.objects.select_related("venue").order_by("pk"))
    by_doi = {
        publication.doi.casefold(): publication for publication in existing if publication.doi
    }
    by_title_year: dict[tuple[str, int | None], Publication] = {}
    by_title: dict[str, Publication] = {}
    for publication in existing:
        title = normalize_title(publication.title)
        by_title_year.setdefault((title, publication.year), publication)
        by_title.setdefault(title, publication)
    by_arxiv = _publications_by_arxiv_id({publication.pk: publication for publication in existing})
    venues = VenueIndex(Venue.objects.all())
    people = author_name_index()
    by_orcid = _people_by_orcid(bibliography)

    seen_in_file: dict[object, str] = {}
    reviewed = []
    for entry in bibliography.entries:
        venue = venues.match(entry)
        publication_type = _publication_type(entry, venue.kind if venue else None)
        item = ReviewedEntry(
            entry=entry,
            decision=Decision.INVALID,
            type=publication_type,
            status=_status(entry),
            venue=venue,
            authors=tuple(
                AuthorMatch.of(name, people, by_orcid.get(orcid) if orcid else None)
                for name, orcid in zip(entry.authors, _orcids(entry), strict=True)
            ),
        )
        title = normalize_title(entry.title)
        doi = entry.doi.casefold()
        arxiv = ("arxiv", entry.arxiv_id.casefold()) if entry.arxiv_id else None
        if entry.problems:
            reviewed.append(item)
            continue
        if earlier := (
            (doi and seen_in_file.get(doi))
            or (arxiv and seen_in_file.get(arxiv))
            or seen_in_file.get((title, entry.year))
        ):
            reason = f"entry “{earlier}” above"
            reviewed.append(replace(item, decision=Decision.DUPLICATE, reason=reason))
            continue
        seen_in_file[(title, entry.year)] = entry.key
        if doi:
            seen_in_file[doi] = entry.key
        if arxiv:
            seen_in_file[arxiv] = entry.key

        if doi and doi in by_doi:
            match, why = by_doi[doi], "same DOI"
        elif arxiv and arxiv[1] in by_arxiv:
            match, why = by_arxiv[arxiv[1]], "same arXiv id"
        elif (title, entry.year) in by_title_year:
            match, why = by_title_year[(title, entry.year)], "same title and year"
        elif title in by_title:
            match, why = by_title[title], "same title"
        else:
            reviewed.append(replace(item, decision=Decision.NEW))
            continue
        changes = _changes(match, entry=entry, venue=venue, publication_type=publication_type)
        if changes:
            reviewed.append(
                replace(item, decision=Decision.UPDATE, existing=match, reason=why, changes=changes)
            )
        else:
            reason = f"“{match}” ({why})"
            reviewed.append(
                replace(item, decision=Decision.DUPLICATE, existing=match, reason=reason)
            )
    return Review(entries=tuple(reviewed), problems=bibliography.problems)


def _publications_by_arxiv_id(publications: dict[int, Publication]) -> dict[str, Publication]:
    """Each arXiv id the publications' links name (any version, abs or pdf page). One query."""
    links = PublicationLink.objects.filter(url__icontains="arxiv.org/").values_list(
        "publication_id", "url"
    )
    found: dict[str, Publication] = {}
    for publication_id, url in links.order_by("publication_id", "position"):
        if (paper := arxiv_id(url)) and publication_id in publications:
            found.setdefault(paper.casefold(), publications[publication_id])
    return found


def _people_by_orcid(bibliography: Bibliography) -> dict[str, Person | ExternalPerson]:
    """Members and external people by ORCID iD, when an entry gives authors' iDs (entries read
    from identifiers may; BibTeX gives none, and then nothing is queried)."""
    return people_by_orcid({orcid for entry in bibliography.entries for orcid in entry.orcids})


def people_by_orcid(orcids: Iterable[str]) -> dict[str, Person | ExternalPerson]:
    """Members and external people by ORCID iD, a member first where both have one (the
    datasets and software import matches creators by it too). No query without an iD."""
    orcids = {orcid for orcid in orcids if orcid}
    if not orcids:
        return {}
    found: dict[str, Person | ExternalPerson] = {}
    for external in ExternalPerson.objects.filter(orcid__in=orcids):
        found[external.orcid] = external
    for person in Person.objects.filter(orcid__in=orcids):
        found[person.orcid] = person  # a member before an external record with the same iD
    return found


def _orcids(entry: BibEntry) -> tuple[str, ...]:
    """Each author's ORCID iD in author order, "" where none is known."""
    if len(entry.orcids) == len(entry.authors):
        return entry.orcids
    return ("",) * len(entry.authors)


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
    if venue and (venue.venue is None or venue.venue.pk != publication.venue_id):
        changes.append(Change("venue", "venue", str(publication.venue or ""), str(venue)))
    if entry.doi and entry.doi.casefold() != publication.doi.casefold():
        changes.append(Change("doi", "DOI", publication.doi, entry.doi))
    if entry.publisher and entry.publisher != publication.publisher:
        changes.append(Change("publisher", "publisher", publication.publisher, entry.publisher))
    if publication_type != Publication.Type.OTHER and publication_type != publication.type:
        old, new = publication.get_type_display(), str(Publication.Type(publication_type).label)
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
        or (entry.eprint_type and not entry.venue)  # a journal's paper may be on arXiv too
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

    def __init__(self, venues: Iterable[Venue]) -> None:
        self.venues: dict[Hashable, Venue] = {venue.pk: venue for venue in venues}
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
