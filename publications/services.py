"""Writes to publications that take more than one step."""

from collections.abc import Iterable

from people.models import ExternalPerson, Person
from people.names import normalize_name
from publications.models import Authorship


def author_name_index() -> dict[str, Person | ExternalPerson]:
    """Each normalized name and alias of the members and of the external people staff keep,
    mapped to whom it names.

    A name that two of them share (two members, two records, or a member and a record) is left
    out: an author is linked only when the name says unambiguously who it is. Two queries.
    """
    index: dict[str, Person | ExternalPerson] = {}
    shared: set[str] = set()
    people: list[Person | ExternalPerson] = [
        *Person.objects.only("name", "slug", "aliases"),
        *ExternalPerson.objects.only("name", "slug", "aliases"),
    ]
    for person in people:
        for key in person.name_keys():
            if key in index and index[key] != person:
                shared.add(key)
            index[key] = person
    for key in shared:
        del index[key]
    return index


def member_name_index() -> dict[str, Person]:
    """The members in author_name_index: a name a member shares with anyone is left out."""
    return {key: who for key, who in author_name_index().items() if isinstance(who, Person)}


def match_member(name: str, index: dict[str, Person]) -> Person | None:
    return index.get(normalize_name(name))


def link_authors(authorships: Iterable[Authorship]) -> list[Authorship]:
    """Link each author row that names nobody yet to the member or external person whose
    name or alias it is printed with; save those rows (each with its history)."""
    index = author_name_index()
    linked = []
    for authorship in authorships:
        if authorship.person_id is not None or authorship.external_id is not None:
            continue
        who = index.get(normalize_name(authorship.name))
        if isinstance(who, Person):
            authorship.person = who
            authorship.save(update_fields=["person"])
            linked.append(authorship)
        elif isinstance(who, ExternalPerson):
            authorship.external = who
            authorship.save(update_fields=["external"])
            linked.append(authorship)
    return linked
