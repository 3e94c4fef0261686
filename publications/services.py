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


def link_authors_to_members(authorships: Iterable[Authorship]) -> list[Authorship]:
    """Fill in the member of each unlinked authorship whose name is a member's; save those."""
    index = member_name_index()
    linked = []
    for authorship in authorships:
        if authorship.person_id is None and (person := match_member(authorship.name, index)):
            authorship.person = person
            authorship.save(update_fields=["person"])
            linked.append(authorship)
    return linked
