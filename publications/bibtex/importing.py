"""Importing the entries staff pick from a review: all in one transaction or none, or, for a
long import in the worker, in short transactions of a batch of whole entries each."""

import time
from collections.abc import Callable, Collection
from dataclasses import dataclass
from functools import partial

from django.db import transaction
from simple_history.utils import bulk_create_with_history

from base.addresses import unique_title_slug
from base.identifiers import ARXIV_ABS
from base.validation import validate_rows
from base.versions import record_snapshot
from base.write_lock import again_when_locked, step_aside
from people.services import save_with_history
from publications.bibtex.reading import BibEntry, Bibliography, Progress, parse_bibtex
from publications.bibtex.review import (
    Decision,
    Review,
    ReviewedEntry,
    VenueMatch,
    review_bibliography,
)
from publications.models import Authorship, Publication, PublicationLink, Venue

# The reason each version an import makes is recorded with, in the history pages: a BibTeX
# upload's; an import from identifiers and a suggested work say where they came from instead.
IMPORTED = "Imported from BibTeX"
IMPORTED_BY_IDENTIFIER = "Imported from identifiers (DOI, arXiv, ORCID, dblp, OpenAlex)"


def suggested_work_reason(service: str) -> str:
    """The reason recorded when a member's suggested work (publications/suggestions/) is
    accepted: the service that listed it."""
    return f"Imported from {service or 'a service'}: a suggested work, accepted"


# Slugs the publication URLs use for pages of their own (/publications/feed/, export.bib).
RESERVED_SLUGS = {"export", "feed"}


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
    # Chosen entries a batched import found already on the site when their batch came.
    left_out: tuple[str, ...] = ()


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
    return import_bibliography(bibliography=bibliography, keys=keys, progress=progress)


# Called inside each batch's transaction with what the batch saved (created, updated, and the
# keys of its entries): a job records them there, so a batch and its record commit together,
# and raises to roll the batch back (a job marked failed meanwhile).
BatchSaved = Callable[[list[Publication], list[Publication], list[str]], None]

# Entries saved per transaction by a batched import, at most, and the time after which a
# batch commits with what it has (one entry at least): on SQLite a transaction holds the one
# write lock, so other writers (a sign-in, an editor's save) wait for at most that long, far
# inside their busy timeout (SQLITE_BUSY_TIMEOUT, 20 s). An entry takes 20 to 80 ms to save.
SAVE_BATCH = 20
SAVE_BATCH_SECONDS = 0.5


def import_bibliography(
    *,
    bibliography: Bibliography,
    keys: Collection[str] | None = None,
    progress: Progress | None = None,
    batch_size: int | None = None,
    batch_saved: BatchSaved | None = None,
    reason: str = IMPORTED,
) -> ImportResult:
    """import_bibtex() of entries already read: from a .bib file, or from identifiers and the
    services' exports (publications/identifiers/). Every version it makes is recorded with
    `reason`, which says where the entries came from.

    With `batch_size`, entries are saved that many to a transaction, each batch reviewed again
    just before it is written, so the site stays writable through a long import and a stop
    leaves whole entries only (`batch_saved` hears of each batch inside its transaction). An
    entry that stopped being new since the first review (added meanwhile by someone else) is
    then left out and counted in `left_out`. Without it, everything is one transaction.
    """
    if batch_size is None:
        with transaction.atomic():
            review = review_bibliography(bibliography=bibliography)
            chosen = _chosen(review, keys=keys)
            result = _save(review, chosen=chosen, reason=reason)
            if batch_saved:
                batch_saved(list(result.created), list(result.updated), chosen)
        if progress:
            progress("Saving", len(chosen), len(chosen))
        return result
    if progress:  # the whole file's review takes a while: a job's heartbeat before it
        progress("Comparing with the publications", 0, len(bibliography.entries))
    review = review_bibliography(bibliography=bibliography)
    chosen = _chosen(review, keys=keys)
    return _save_in_batches(
        review,
        chosen=chosen,
        batch_size=batch_size,
        progress=progress,
        batch_saved=batch_saved,
        reason=reason,
    )


def _save_in_batches(
    review: Review,
    *,
    chosen: list[str],
    batch_size: int,
    progress: Progress | None,
    batch_saved: BatchSaved | None,
    reason: str,
) -> ImportResult:
    by_key = {item.entry.key: item.entry for item in review.entries}
    created: list[Publication] = []
    updated: list[Publication] = []
    venues: dict[int, Venue] = {}
    left_out: list[str] = []
    if progress:
        progress("Saving", 0, len(chosen))
    done = 0
    while done < len(chosen):
        # Editors and sign-ins waiting for SQLite's write lock get it between two batches; a
        # batch that waited out its own busy timeout is reviewed and saved again, not the
        # import failed (reviewed again: others wrote while it waited).
        batch, keys, still = again_when_locked(
            partial(
                _review_and_save_batch,
                [by_key[key] for key in chosen[done : done + batch_size]],
                reason=reason,
                batch_saved=batch_saved,
            ),
            waiting=partial(progress, "Saving", done, len(chosen)) if progress else None,
        )
        step_aside()
        left_out += [key for key in keys if key not in still]
        created += batch.created
        updated += batch.updated
        venues.update((venue.pk, venue) for venue in batch.venues)
        done += len(keys)
        if progress:
            progress("Saving", done, len(chosen))
    return ImportResult(
        review=review,
        created=tuple(created),
        updated=tuple(updated),
        venues=tuple(venues.values()),
        left_out=tuple(left_out),
    )


def _review_and_save_batch(
    entries: list[BibEntry], *, reason: str, batch_saved: BatchSaved | None
) -> tuple["_Saved", list[str], set[str]]:
    """One batch reviewed again as the database is now (outside the transaction, so the write
    lock is held only while writing), then saved: what it saved, the keys it went through and
    those still importable."""
    keys = [entry.key for entry in entries]
    again = review_bibliography(bibliography=Bibliography(entries=tuple(entries), problems=()))
    still = {item.entry.key for item in again.entries if item.importable}
    batch, keys = _save_batch(again, still=still, keys=keys, reason=reason, batch_saved=batch_saved)
    return batch, keys, still


def _save_batch(
    review: Review,
    *,
    still: set[str],
    keys: list[str],
    reason: str,
    batch_saved: BatchSaved | None,
) -> tuple["_Saved", list[str]]:
    """One batch's transaction: what it saved, and the keys it went through."""
    with transaction.atomic():
        # Timed from here: on SQLite the transaction may first wait for the write lock.
        batch = _save(review, chosen=still, seconds=SAVE_BATCH_SECONDS, reason=reason)
        # Entries up to the last one saved are done; those after wait for the next batch.
        keys = keys[: keys.index(batch.last_key) + 1]
        if batch_saved:
            batch_saved(list(batch.created), list(batch.updated), keys)
    return batch, keys


def _chosen(review: Review, *, keys: Collection[str] | None) -> list[str]:
    """The keys to import, in file order; ImportRefused when the file has problems or a
    chosen entry is no longer new or an update."""
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
    return [item.entry.key for item in review.entries if item.entry.key in chosen]


@dataclass(frozen=True)
class _Saved(ImportResult):
    last_key: str = ""  # the last entry of the review gone through (saved, or not chosen)


def _save(
    review: Review, *, chosen: Collection[str], seconds: float | None = None, reason: str
) -> _Saved:
    """Save the chosen entries of a review, in order, stopping after the first entry that ends
    past `seconds`; the caller holds the transaction."""
    deadline = time.monotonic() + seconds if seconds is not None else None
    chosen = set(chosen)
    taken_slugs = set(Publication.objects.values_list("slug", flat=True)) | RESERVED_SLUGS
    new_venues: dict[str, Venue] = {}
    created, updated = [], []
    last_key = ""
    for item in review.entries:
        if deadline is not None and last_key and time.monotonic() > deadline:
            break
        last_key = item.entry.key
        if item.entry.key not in chosen:
            continue
        venue = _venue_for(item.venue, new_venues, reason=reason)
        if item.decision is Decision.NEW:
            created.append(_create(item, venue=venue, taken_slugs=taken_slugs, reason=reason))
        else:
            updated.append(_update(item, venue=venue, reason=reason))
    return _Saved(
        review=review,
        created=tuple(created),
        updated=tuple(updated),
        venues=tuple(new_venues.values()),
        last_key=last_key,
    )


def _venue_for(
    match: VenueMatch | None, new_venues: dict[str, Venue], *, reason: str
) -> Venue | None:
    if match is None:
        return None
    if match.venue is not None:
        return match.venue
    key = match.short_name.casefold()
    if key not in new_venues:
        venue = Venue.objects.filter(short_name__iexact=match.short_name).first()
        if venue is None:
            venue = Venue(short_name=match.short_name, full_name=match.full_name, kind=match.kind)
            save_with_history(venue, reason=reason, user=None)
        new_venues[key] = venue
    return new_venues[key]


def _create(
    item: ReviewedEntry, *, venue: Venue | None, taken_slugs: set[str], reason: str
) -> Publication:
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
        publisher=entry.publisher,
    )
    save_with_history(publication, reason=reason, user=None)
    authorships = [
        Authorship(
            publication=publication,
            position=position,
            name=author.name,
            researcher=author.member or author.external,
        )
        for position, author in enumerate(item.authors, start=1)
    ]
    validate_rows(authorships)  # bulk_create sends no pre_save: the models' checks run here
    # Makes the paper's citation key and search text as the authors' saves would
    # (Authorship's QuerySet: publications/derived.py).
    bulk_create_with_history(authorships, Authorship, default_change_reason=reason)
    for position, (kind, url) in enumerate(_links(entry), start=1):
        link = PublicationLink(publication=publication, position=position, kind=kind, url=url)
        save_with_history(link, reason=reason, user=None)
    record_snapshot(publication)  # its first version, with the authors and link just made
    return publication


def _links(entry: BibEntry) -> list[tuple[str, str]]:
    """The entry's PDF, arXiv page and web address, each once, as links of their kind."""
    links: list[tuple[str, str]] = []
    if entry.pdf_url:
        links.append((PublicationLink.Kind.PDF, entry.pdf_url))
    if entry.arxiv_id:
        links.append((PublicationLink.Kind.ARXIV, f"{ARXIV_ABS}{entry.arxiv_id}"))
    if entry.url and entry.url not in (url for _, url in links):
        is_pdf = entry.url.lower().endswith(".pdf")
        links.append(
            (PublicationLink.Kind.PDF if is_pdf else PublicationLink.Kind.OTHER, entry.url)
        )
    return links


def _update(item: ReviewedEntry, *, venue: Venue | None, reason: str) -> Publication:
    publication = item.existing
    assert publication is not None, "an update names the publication it updates"
    values = {
        "year": item.entry.year,
        "venue": venue,
        "doi": item.entry.doi,
        "type": item.type,
        "publisher": item.entry.publisher,
    }
    for change in item.changes:
        setattr(publication, change.field, values[change.field])
    publication._change_reason = reason  # type: ignore[attr-defined]  # simple-history reads it
    publication.save(update_fields=[change.field for change in item.changes])
    record_snapshot(publication)
    return publication


def _unique_slug(title: str, taken: set[str]) -> str:
    return unique_title_slug(
        title, taken=taken, url_name=Publication.url_name, fallback="publication"
    )
