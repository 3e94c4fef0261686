"""A member's works, read from their ORCID record and dblp page, kept as suggestions when the
site does not have them yet.

`check_member()` runs in the task worker (tasks.py). Whatever the services answer (slowly, too
much, garbage, nothing), it ends with the member's WorkCheck saying what happened in sentences
for staff; it never raises, so one member's bad record stops nobody else's check.
"""

import json
import logging
from collections.abc import Iterable
from dataclasses import asdict

from django.db import transaction
from django.utils import timezone

from people.models import Person, PersonLink
from publications.bibtex.reading import BibEntry, Bibliography
from publications.bibtex.review import Decision, normalize_title, review_bibliography
from publications.identifiers.fetching import Fetch, default_fetch, within
from publications.identifiers.gathering import gather
from publications.identifiers.pasted import DBLP, Identifier, Kind
from publications.suggestions.models import Suggestion, WorkCheck

logger = logging.getLogger(__name__)

# How long one member's check may spend asking the services, in all (every request of an ORCID
# record of thousands of works included); each request waits at most the fetch's own time-out.
CHECK_SECONDS = 120
# Works waiting for a member's decision at most: a member with thousands of works not on the
# site gets the first ones now and the next once these are decided.
MAX_WAITING = 200
AUTHORS_SHOWN = 12


class Remembered:
    """What a member's suggestions (waiting, accepted or rejected) are known by: a work with
    the same DOI, arXiv id or folded title is never suggested to them again."""

    def __init__(self, suggestions: Iterable[tuple[str, str, str]]) -> None:
        self.keys: set[tuple[str, str]] = set()
        for doi, arxiv_id, folded_title in suggestions:
            self.add(doi=doi, arxiv_id=arxiv_id, folded_title=folded_title)

    def add(self, *, doi: str, arxiv_id: str, folded_title: str) -> None:
        for kind, value in (("doi", doi), ("arxiv", arxiv_id), ("title", folded_title)):
            if value:
                self.keys.add((kind, value.casefold()))

    def knows(self, entry: BibEntry) -> bool:
        return bool(self.keys & set(_keys(entry)))


def _keys(entry: BibEntry) -> list[tuple[str, str]]:
    keys = [("title", normalize_title(entry.title))]
    if entry.doi:
        keys.append(("doi", entry.doi.casefold()))
    if entry.arxiv_id:
        keys.append(("arxiv", entry.arxiv_id.casefold()))
    return keys


def identifiers_of(person: Person) -> tuple[list[Identifier], list[str]]:
    """The member's ORCID iD and the dblp key of each DBLP link on their profile; a sentence
    for a DBLP link that names no dblp person page."""
    found: list[Identifier] = []
    notes: list[str] = []
    if person.orcid:
        found.append(Identifier(Kind.ORCID, person.orcid, 1))
    links = person.links.filter(kind=PersonLink.Kind.DBLP).order_by("position")
    for number, link in enumerate(links, start=len(found) + 1):
        address = link.url.strip().rstrip("/")
        if match := DBLP.match(address):
            found.append(Identifier(Kind.DBLP, match["pid"], number))
        else:
            notes.append(
                f"The DBLP link “{address[:80]}” is not a dblp person page "
                "(https://dblp.org/pid/…): it was not read."
            )
    return found, notes


def check_member(person_id: int, *, fetch: Fetch | None = None) -> WorkCheck | None:
    """Read the member's works and keep each one new to the site and to them as a suggestion.
    None when the person was deleted meanwhile."""
    person = Person.objects.filter(pk=person_id).first()
    if person is None:
        return None
    check, _ = WorkCheck.objects.get_or_create(person=person)
    identifiers, notes = identifiers_of(person)
    if not identifiers:
        return _finish(
            check,
            failed=True,
            notes=[*notes, f"{person.name} has no ORCID iD and no DBLP link to check."],
        )
    try:
        gathered = gather(
            identifiers,
            fetch=within(
                fetch or default_fetch(),
                seconds=CHECK_SECONDS,
                message=f"The check took longer than {CHECK_SECONDS:g} seconds in all and "
                "stopped; the works read so far are suggested, the others at the next check.",
            ),
            seconds=CHECK_SECONDS,
        )
        bibliography = gathered.bibliography()
        # entries() makes one entry per work, in order: the service each came from.
        sources = {
            entry.key: work.source
            for work, entry in zip(gathered.works, bibliography.entries, strict=True)
        }
        suggested, left = _suggest(person, bibliography, sources=sources)
    except Exception:  # an answer the readers did not expect: said, never a crash of the worker
        logger.exception("Checking the works of person %s failed", person_id)
        return _finish(
            check,
            failed=True,
            notes=[
                *notes,
                "A service answered with something this site could not read; nothing was "
                "suggested. It is tried again at the next check.",
            ],
        )
    problems = [problem.split(": ", 1)[-1] for problem in gathered.problems]
    if left:
        problems.append(
            f"{left:,} more new works wait until the {MAX_WAITING} waiting are accepted or "
            "rejected."
        )
    return _finish(
        check,
        failed=bool(gathered.problems) and not gathered.works,
        notes=[*notes, *problems],
        works_read=len(gathered.works),
        suggested=suggested,
    )


def _suggest(
    person: Person, bibliography: Bibliography, *, sources: dict[str, str]
) -> tuple[int, int]:
    """Keep the entries the review finds new, and the member was never suggested, as
    suggestions; at most MAX_WAITING wait at once. The number kept, and the number left."""
    review = review_bibliography(bibliography=bibliography)
    remembered = Remembered(
        Suggestion.objects.filter(person=person).values_list("doi", "arxiv_id", "folded_title")
    )
    room = MAX_WAITING - Suggestion.objects.filter(person=person).pending().count()
    new: list[Suggestion] = []
    left = 0
    for item in review.entries:
        entry = item.entry
        if item.decision is not Decision.NEW or remembered.knows(entry):
            continue
        if len(new) >= room:
            left += 1
            continue
        suggestion = suggestion_of(person, entry, source=sources.get(entry.key, ""))
        remembered.add(
            doi=suggestion.doi, arxiv_id=suggestion.arxiv_id, folded_title=suggestion.folded_title
        )
        new.append(suggestion)
    Suggestion.objects.bulk_create(new)
    return len(new), left


def suggestion_of(person: Person, entry: BibEntry, *, source: str) -> Suggestion:
    names = list(entry.authors)
    authors = ", ".join(names[:AUTHORS_SHOWN])
    if len(names) > AUTHORS_SHOWN:
        authors += f" and {len(names) - AUTHORS_SHOWN:,} more"
    return Suggestion(
        person=person,
        source=source,
        title=entry.title,
        authors=authors,
        year=entry.year,
        venue=entry.venue[:500],
        doi=entry.doi,
        arxiv_id=entry.arxiv_id,
        folded_title=normalize_title(entry.title)[:1000],
        entry=json.loads(json.dumps(asdict(entry))),
    )


@transaction.atomic
def _finish(
    check: WorkCheck,
    *,
    failed: bool,
    notes: list[str],
    works_read: int = 0,
    suggested: int = 0,
) -> WorkCheck:
    check.state = WorkCheck.State.FAILED if failed else WorkCheck.State.DONE
    check.checked_at = timezone.now()
    check.works_read = works_read
    check.suggested = suggested
    check.message = "\n".join(dict.fromkeys(notes))[:10_000]
    check.save()
    return check
