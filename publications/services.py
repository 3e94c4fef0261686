"""Writes to publications that take more than one step."""

from collections.abc import Iterable

from people.models import Person
from people.names import normalize_name
from publications.models import Authorship


def member_name_index() -> dict[str, Person]:
    """Each member's normalized name and aliases, mapped to the member.

    A name that two members share is left out: an author is linked only when the name says
    unambiguously who it is. Runs one query.
    """
    index: dict[str, Person] = {}
    shared: set[str] = set()
    for person in Person.objects.only("name", "slug", "aliases"):
        for key in person.name_keys():
            if key in index and index[key] != person:
                shared.add(key)
            index[key] = person
    for key in shared:
        del index[key]
    return index


def match_member(name: str, index: dict[str, Person]) -> Person | None:
    return index.get(normalize_name(name))


def link_authors_to_members(
    authorships: Iterable[Authorship], *, saved_by: Person | None = None
) -> list[Authorship]:
    """Fill in the member of each unlinked authorship whose name is a member's; save those.

    A row someone took off a member's profile (`link_declined`) is not linked by its name
    again. When a member saves (`saved_by`), only their own name is linked: a row naming
    another member is proposed to that member (`proposed_person`), since which papers a
    profile lists is its owner's decision, or an editor's. Returns the rows changed.
    """
    index = member_name_index()
    changed = []
    for authorship in authorships:
        if authorship.person_id is not None or authorship.link_declined:
            continue
        person = match_member(authorship.name, index)
        if person is None:
            continue
        if saved_by is None or person == saved_by:
            authorship.person, authorship.proposed_person = person, None
            authorship.save(update_fields=["person", "proposed_person"])
        elif authorship.proposed_person_id != person.pk:
            authorship.proposed_person = person
            authorship.save(update_fields=["proposed_person"])
        else:
            continue
        changed.append(authorship)
    return changed


def answer_proposal(*, authorship: Authorship, accept: bool) -> None:
    """The proposed member (or an editor) says whether this author is them."""
    if accept:
        authorship.person, authorship.link_declined = authorship.proposed_person, False
    else:
        authorship.link_declined = True
    authorship.proposed_person = None
    authorship.save(update_fields=["person", "proposed_person", "link_declined"])
