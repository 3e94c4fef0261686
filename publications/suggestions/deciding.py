"""Accepting a suggested work (imported by the BibTeX review's own import, the member linked)
or rejecting it (remembered, never suggested again). The admin's buttons call these."""

import json
from typing import Any

from django.db import transaction
from django.utils import timezone

from base.roles import is_editor, person_of
from people.models import Person
from people.names import normalize_name
from publications.bibtex.importing import (
    ImportRefused,
    import_bibliography,
    suggested_work_reason,
)
from publications.bibtex.review import Decision, review_bibliography
from publications.identifiers.stored import from_json
from publications.models import Authorship, Publication
from publications.services import link_author_row
from publications.suggestions.models import Suggestion

# The reason each version accepting makes is recorded with, in the history pages.
LINKED = "Linked by accepting a suggested work"


class DecisionRefused(Exception):
    """Nothing changed; the message says why in a sentence for staff."""


def may_decide(user: Any, suggestion: Suggestion) -> bool:
    """Editors decide any suggestion; a member only their own."""
    if is_editor(user):
        return True
    person = person_of(user)
    return person is not None and person.pk == suggestion.person_id


@transaction.atomic
def accept(*, suggestion_id: int, user: Any) -> str:
    """Add the work to the site (or find it there, if someone added it meanwhile) and link the
    member to its author row; what happened, in a sentence."""
    suggestion = _pending(suggestion_id, user)
    bibliography = from_json(json.dumps([suggestion.entry]))
    entry = bibliography.entries[0]
    item = review_bibliography(bibliography=bibliography).entries[0]
    if item.decision is Decision.NEW:
        try:
            result = import_bibliography(
                bibliography=bibliography,
                keys=[entry.key],
                reason=suggested_work_reason(suggestion.source),
            )
        except ImportRefused as refused:
            raise DecisionRefused(
                "It could not be added: " + " ".join(refused.review.all_problems or [str(refused)])
            ) from None
        publication, added = result.created[0], True
    elif item.existing is not None:
        publication, added = item.existing, False
    else:
        raise DecisionRefused("It could not be added: " + " ".join(entry.problems))
    # The entry's ORCID iDs follow its authors' order: the rows of a paper it just made.
    orcids = entry.orcids if added else ()
    linked = link_member(publication, suggestion.person, orcids=orcids, user=user)
    suggestion.state = Suggestion.State.ACCEPTED
    suggestion.publication = publication
    _decided(suggestion, user)
    said = f"Added “{publication.title}”." if added else f"“{publication.title}” is on the site."
    if linked:
        return f"{said} {suggestion.person.name} is linked as its author “{linked}”."
    return (
        f"{said} No author of it is named like {suggestion.person.name}: link them on the "
        "paper's page."
    )


@transaction.atomic
def reject(*, suggestion_id: int, user: Any) -> str:
    suggestion = _pending(suggestion_id, user)
    suggestion.state = Suggestion.State.REJECTED
    _decided(suggestion, user)
    return f"“{suggestion.title}” is set aside and will not be suggested again."


def _pending(suggestion_id: int, user: Any) -> Suggestion:
    suggestion = (
        Suggestion.objects.select_for_update()
        .select_related("person")
        .filter(pk=suggestion_id)
        .first()
    )
    if suggestion is None or not may_decide(user, suggestion):
        raise DecisionRefused("There is no such suggestion, or it is not yours to decide.")
    if suggestion.state != Suggestion.State.PENDING:
        raise DecisionRefused(
            f"“{suggestion.title}” was decided already ({suggestion.get_state_display()})."
        )
    return suggestion


def _decided(suggestion: Suggestion, user: Any) -> None:
    suggestion.decided_at = timezone.now()
    suggestion.decided_by = user if getattr(user, "pk", None) else None
    suggestion.save()


def link_member(
    publication: Publication, person: Person, *, orcids: tuple[str, ...] = (), user: Any
) -> str:
    """Link `person` to the author row that is them: the row their ORCID iD names, else the
    one unlinked row with one of their names, else the one with their family name. The row's
    name, or "" when none is theirs for sure (then nothing is linked)."""
    rows: list[Authorship] = list(
        Authorship.objects.filter(publication=publication)
        .select_related("researcher__profile")
        .order_by("position")
    )
    if mine := next((row for row in rows if row.researcher_id == person.pk), None):
        return mine.name
    free = [row for row in rows if row.person is None]
    by_orcid = [
        row
        for row in free
        if person.orcid and len(orcids) >= row.position and orcids[row.position - 1] == person.orcid
    ]
    keys = person.name_keys()
    by_name = [row for row in free if normalize_name(row.name) in keys]
    family = {key.split()[-1] for key in keys}
    by_family = [
        row for row in free if (parts := normalize_name(row.name).split()) and parts[-1] in family
    ]
    for candidates in (by_orcid, by_name, by_family):
        if len(candidates) == 1:
            row = candidates[0]
            link_author_row(
                authorship=row,
                to=person,
                reason=LINKED,
                user=user if getattr(user, "pk", None) else None,
            )
            return row.name
        if candidates:
            return ""
    return ""
