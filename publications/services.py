"""Writes to publications that take more than one step."""

from collections.abc import Iterable

from people.models import ExternalPerson, Person
from people.names import normalize_name
from publications.models import Authorship


class AuthorNames(dict[str, Person | ExternalPerson]):
    """Each normalized name and alias, mapped to the one member or external person it names;
    `namesakes` keeps the names left out, with everyone who goes by each."""

    def __init__(self) -> None:
        super().__init__()
        self.namesakes: dict[str, list[Person | ExternalPerson]] = {}

    def why_unlinked(self, name: str) -> str:
        """Why an author printed as `name` is linked to nobody, when namesakes are why: staff
        choose among them in the author row's pickers. Empty when nobody goes by the name."""
        everyone = self.namesakes.get(normalize_name(name), [])
        if not everyone:
            return ""
        who = "; ".join(person.described for person in everyone)
        return f"Not linked: {len(everyone)} people go by “{name}”: {who}. Choose who it is."


def author_name_index() -> AuthorNames:
    """Each normalized name and alias of the members and of the external people staff keep,
    mapped to whom it names.

    A name several of them share names the one published member among them when all the others
    are draft profiles (a second profile begun for the same person, say); otherwise (two
    published members, two records, or a member and a record) it is left out, in `namesakes`:
    an author is linked only when the name says unambiguously who it is. Two queries.
    """
    people: list[Person | ExternalPerson] = [
        *Person.objects.only("name", "slug", "aliases", "is_published"),
        *ExternalPerson.objects.only("name", "slug", "aliases", "affiliation"),
    ]
    by_name: dict[str, list[Person | ExternalPerson]] = {}
    for person in people:
        for key in person.name_keys():
            by_name.setdefault(key, []).append(person)
    index = AuthorNames()
    for key, everyone in by_name.items():
        published = [who for who in everyone if isinstance(who, Person) and who.is_published]
        if len(everyone) == 1:
            index[key] = everyone[0]
        elif len(published) == 1 and all(isinstance(who, Person) for who in everyone):
            index[key] = published[0]
        else:
            index.namesakes[key] = everyone
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

    A row someone took off a member's profile (`link_declined`) is not linked by its name
    again, to a member or an external person: a namesake no source says is the same person
    (the survey's "Xin Jin", fixtures/NOTES.md) stays unlinked. When a member saves (`saved_by`), only their own name is linked to a
    member: a row naming another member is proposed to that member (`proposed_person`), since
    which papers a profile lists is its owner's decision, or an editor's. An external person
    has no profile to decide for, so a row printed with their name is linked whoever saves.
    Returns the rows changed.
    """
    index = author_name_index()
    changed = []
    for authorship in authorships:
        if authorship.researcher_id is not None:
            continue
        who = index.get(normalize_name(authorship.name))
        if isinstance(who, ExternalPerson) and not authorship.link_declined:
            authorship.researcher = who
            authorship.save(update_fields=["researcher"])
        elif not isinstance(who, Person) or authorship.link_declined:
            continue
        elif saved_by is None or who == saved_by:
            authorship.researcher, authorship.proposed_person = who, None
            authorship.save(update_fields=["researcher", "proposed_person"])
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
        authorship.researcher, authorship.link_declined = authorship.proposed_person, False
    else:
        authorship.link_declined = True
    authorship.proposed_person = None
    authorship.save(update_fields=["researcher", "proposed_person", "link_declined"])
