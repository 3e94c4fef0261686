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


def link_authors(
    authorships: Iterable[Authorship], *, saved_by: Person | None = None
) -> list[Authorship]:
    """Link each author row that names nobody yet to the member or external person whose
    name or alias it is printed with; save those rows (each with its history).

    A row someone took off a member's profile (`link_declined`) is not linked to a member by
    its name again. When a member saves (`saved_by`), only their own name is linked to a
    member: a row naming another member is proposed to that member (`proposed_person`), since
    which papers a profile lists is its owner's decision, or an editor's. An external person
    has no profile to decide for, so a row printed with their name is linked whoever saves.
    Returns the rows changed.
    """
    index = author_name_index()
    changed = []
    for authorship in authorships:
        if authorship.person_id is not None or authorship.external_id is not None:
            continue
        who = index.get(normalize_name(authorship.name))
        if isinstance(who, ExternalPerson):
            authorship.external = who
            authorship.save(update_fields=["external"])
        elif not isinstance(who, Person) or authorship.link_declined:
            continue
        elif saved_by is None or who == saved_by:
            authorship.person, authorship.proposed_person = who, None
            authorship.save(update_fields=["person", "proposed_person"])
        elif authorship.proposed_person_id != who.pk:
            authorship.proposed_person = who
            authorship.save(update_fields=["proposed_person"])
        else:
            continue
        changed.append(authorship)
    return changed


def answer_proposal(*, authorship: Authorship, accept: bool) -> None:
    """The proposed member (or an editor) says whether this author is them. A member who
    accepts is the author, whoever else the row named meanwhile (an external person)."""
    if accept:
        authorship.person, authorship.link_declined = authorship.proposed_person, False
        authorship.external = None
    else:
        authorship.link_declined = True
    authorship.proposed_person = None
    authorship.save(update_fields=["person", "external", "proposed_person", "link_declined"])
