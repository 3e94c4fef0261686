"""Writes to publications that take more than one step."""

import logging
from collections.abc import Iterable
from typing import Any

from django.core.mail import send_mail
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import ngettext

from base.versions import record_snapshot
from people.models import ExternalPerson, Person
from people.names import normalize_name
from publications.claims.models import Claim
from publications.models import Authorship, Publication

logger = logging.getLogger(__name__)


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
        # In one order (by name, then address), so namesakes are listed alike on every database.
        *Person.objects.only("name", "slug", "aliases", "is_published").order_by("name", "slug"),
        *ExternalPerson.objects.only("name", "slug", "aliases", "affiliation").order_by(
            "name", "slug"
        ),
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
    authorships: Iterable[Authorship], *, on_behalf_of: Person | None = None
) -> list[Authorship]:
    """Link each author row that names nobody yet to the external person whose name or alias
    it is printed with, or propose it to the member of that name; save those rows (each with
    its history).

    A row is linked by its name to a member only on that member's behalf (`on_behalf_of`: the
    member who saves, or whose names an editor changed). A row printed with any other member's
    name is proposed to that member (`proposed_person`), whoever saves, an editor included:
    which papers a profile lists is its owner's claim, or an editor's explicit choice of the
    member in the author row. A row someone took off a member's profile (`link_declined`) is
    not linked by its name again, to a member or an external person: a namesake no source says
    is the same person (the survey's "Xin Jin", fixtures/NOTES.md) stays unlinked. An external
    person has no profile to decide for, so a row printed with their name is linked whoever
    saves. Returns the rows changed.
    """
    index = author_name_index()
    changed = []
    for authorship in authorships:
        if authorship.researcher_id is not None:
            continue
        who = index.get(normalize_name(authorship.name))
        if isinstance(who, ExternalPerson) and not authorship.link_declined:
            link_author_row(authorship=authorship, to=who)
        elif not isinstance(who, Person) or authorship.link_declined:
            continue
        elif who == on_behalf_of:
            link_author_row(authorship=authorship, to=who)
        elif authorship.proposed_person_id != who.pk:
            authorship.proposed_person = who
            authorship.save(update_fields=["proposed_person"])
        else:
            continue
        changed.append(authorship)
    return changed


def link_author_row(
    *,
    authorship: Authorship,
    to: Person | ExternalPerson | None,
    reason: str = "",
    user: Any = None,
) -> None:
    """Say who an author row is: the member or external person `to`, or no member (None), and
    keep it so: a row taken off its member is not linked by its name again (`link_declined`).
    Saved with its history (`reason`, `user`).

    The one function that writes who an author row is for the links made by name, claims,
    proposals and their answers (one key, the row's researcher: a member or an outsider)."""
    authorship.researcher, authorship.link_declined = to, to is None
    authorship.proposed_person = None
    if reason:
        authorship._change_reason = reason  # type: ignore[attr-defined]  # simple-history reads it
    if user is not None:
        authorship._history_user = user  # type: ignore[attr-defined]
    authorship.save(update_fields=["researcher", "proposed_person", "link_declined"])


def answer_proposal(*, authorship: Authorship, accept: bool, user: Any = None) -> None:
    """The proposed member (or an editor) says whether this author is them. A member who
    accepts is the author, whoever else the row named meanwhile (an external person)."""
    member = authorship.proposed_person
    if accept and member is not None:
        reason = f"{member} confirmed this author is them"
        link_author_row(authorship=authorship, to=member, reason=reason, user=user)
    else:
        reason = f"{member} said this author is not them"
        link_author_row(authorship=authorship, to=None, reason=reason, user=user)


class ClaimRefused(Exception):
    """A claim or decision the site cannot take, in a sentence for the member or editor."""


def claim_author(*, authorship: Authorship, person: Person, kind: str) -> Claim:
    """A member says the author row is them (`Claim.Kind.THIS_IS_ME`) or is not them
    (`NOT_ME`): queued for an editor. A second click on the same row returns the claim
    waiting already."""
    member = authorship.person
    if kind == Claim.Kind.THIS_IS_ME:
        if member == person:
            raise ClaimRefused(f"“{authorship.name}” is linked to you already.")
        if member is not None:
            raise ClaimRefused(
                f"“{authorship.name}” is linked to another member. If it is you, send a "
                "correction saying so."
            )
    elif kind == Claim.Kind.NOT_ME:
        if member != person:
            raise ClaimRefused(f"“{authorship.name}” is not linked to you.")
    else:
        raise ClaimRefused("Choose “This is me” or “Not me”.")
    claim, _ = Claim.objects.get_or_create(
        authorship=authorship,
        person=person,
        state=Claim.State.WAITING,
        defaults={"kind": kind, "publication_id": authorship.publication_id},
    )
    return claim


def send_correction(*, publication: Publication, message: str, email: str = "") -> Claim:
    """A visitor's correction of a paper, queued for an editor (checked by the form first)."""
    return Claim.objects.create(
        kind=Claim.Kind.CORRECTION, publication=publication, message=message, email=email
    )


def decide_claim(*, claim_id: int, accept: bool, user: Any) -> str:
    """An editor accepts or rejects a claim or correction. Accepting a claim links or unlinks
    its author row (link_author_row); every decision is written into the paper's history with
    who claimed and who decided. Returns what was done, in a sentence for the editor."""
    editor = str(getattr(user, "person", None) or user.get_full_name() or user.get_username())
    with transaction.atomic():
        claim = (
            # The claim's row only: PostgreSQL locks no row on the nullable side of an outer
            # join (a correction has no author row), and refuses to be asked.
            Claim.objects.select_for_update(of=("self",))
            .select_related("authorship", "person", "publication")
            .filter(pk=claim_id)
            .first()
        )
        if claim is None:
            raise ClaimRefused("This claim was deleted.")
        if claim.state != Claim.State.WAITING:
            raise ClaimRefused(f"This was decided already: {claim.get_state_display().lower()}.")
        row, member, paper = claim.authorship, claim.person, claim.publication
        verb = "accepted" if accept else "rejected"
        if claim.kind == Claim.Kind.CORRECTION:
            reason = f"Correction from a visitor {verb} by {editor}"
        elif claim.kind == Claim.Kind.THIS_IS_ME:
            reason = f"Claimed by {member} as “{row.name if row else ''}”, {verb} by {editor}"
        else:
            reason = f"{member} said “{row.name if row else ''}” is not them, {verb} by {editor}"
        if accept and row is not None and member is not None:
            if claim.kind == Claim.Kind.THIS_IS_ME:
                if row.person not in (None, member):
                    raise ClaimRefused(
                        f"“{row.name}” is linked to {row.person} now: take it off them on the "
                        "paper's page first, or reject this claim."
                    )
                link_author_row(authorship=row, to=member, reason=reason, user=user)
            elif row.person == member:
                link_author_row(authorship=row, to=None, reason=reason, user=user)
        claim.state = Claim.State.ACCEPTED if accept else Claim.State.REJECTED
        claim.decided_at, claim.decided_by = timezone.now(), user
        claim.save(update_fields=["state", "decided_at", "decided_by"])
        # The paper's history lists the decision, with its authors as they now are (read again
        # under a lock: an editor's save meanwhile is not written over).
        paper = Publication.objects.select_for_update().get(pk=claim.publication_id)
        paper._change_reason = reason  # simple-history reads it
        paper._history_user = user
        paper.save()
        record_snapshot(paper)
        transaction.on_commit(lambda: tell_claimant(claim, accepted=accept))
    return f"{reason}."


def claim_decided_email(claim: Claim, *, accepted: bool) -> tuple[str, str, str] | None:
    """The email telling whoever sent a claim or correction how an editor decided it: the
    address, the subject and the text, in plain sentences; None when there is nobody to tell
    (a visitor who left no address, a member whose profile and login have none)."""
    title, row = claim.publication.title, claim.authorship
    author = f"“{row.name}”" if row else "an author"
    if claim.kind == Claim.Kind.CORRECTION:
        address, greeting = claim.email, "Hello,"
        subject = f"Your correction to “{title}”"
        text = (
            "An editor accepted your correction and will change the paper's page."
            if accepted
            else "An editor read your correction and left the paper's page as it is."
        )
    else:
        member = claim.person
        if member is None:
            return None
        address = member.email or (member.user.email if member.user else "")
        greeting = f"Hello {member.name},"
        verdict = "accepted" if accepted else "did not accept"
        subject = f"Your claim on “{title}” was {'accepted' if accepted else 'not accepted'}"
        if claim.kind == Claim.Kind.THIS_IS_ME:
            text = f"An editor {verdict} that you are the author {author} of “{title}”. " + (
                "The paper is now on your profile."
                if accepted
                else "Nothing was changed. If it is you, ask an editor why."
            )
        else:
            text = f"An editor {verdict} that you are not the author {author} of “{title}”. " + (
                "The paper is no longer on your profile."
                if accepted
                else "The paper stays on your profile. If it is not you, ask an editor why."
            )
    if not address:
        return None
    return address, subject, f"{greeting}\n\n{text}\n"


def tell_claimant(claim: Claim, *, accepted: bool) -> None:
    """Sent once the decision is saved. A mail server that refuses it is written to the log:
    the decision stands, and the editor is not shown an error for it."""
    email = claim_decided_email(claim, accepted=accepted)
    if email is None:
        return
    address, subject, text = email
    try:
        send_mail(subject, text, None, [address])
    except OSError:
        logger.exception("The email about claim %s could not be sent.", claim.pk)


def relink_member_names(
    *, person: Person, added: Iterable[str], removed: Iterable[str], user: Any = None
) -> list[str]:
    """A member's names changed: link the unlinked author rows printed with a name they gained
    (when the name says unambiguously it is them, and nobody took the row off them), and say
    which rows printed with a name they lost stay linked: an unlink is a decision for them or
    an editor, row by row, never a side effect. Returns sentences for the editor."""
    said: list[str] = []
    added, removed = list(added), list(removed)
    if added:
        index = author_name_index()
        moved: dict[str, int] = {}
        namesakes: dict[str, int] = {}
        rows = Authorship.objects.filter(printed_as(added), researcher=None)
        for row in rows.filter(link_declined=False).order_by("pk"):
            key = normalize_name(row.name)
            if index.get(key) == person:
                link_author_row(
                    authorship=row,
                    to=person,
                    reason=f"Linked to {person} by the name “{row.name}”",
                    user=user,
                )
                moved[row.name] = moved.get(row.name, 0) + 1
            elif key in index.namesakes:
                namesakes[row.name] = namesakes.get(row.name, 0) + 1
        said += [
            ngettext(
                "%(count)d author row of “%(name)s” now links to %(person)s.",
                "%(count)d author rows of “%(name)s” now link to %(person)s.",
                count,
            )
            % {"count": count, "name": name, "person": person}
            for name, count in moved.items()
        ]
        said += [
            ngettext(
                "%(count)d author row of “%(name)s” stays unlinked: others go by that name too. "
                "Choose who it is on its paper's page.",
                "%(count)d author rows of “%(name)s” stay unlinked: others go by that name too. "
                "Choose who each is on its paper's page.",
                count,
            )
            % {"count": count, "name": name}
            for name, count in namesakes.items()
        ]
    kept_keys = person.name_keys()
    lost = [name for name in removed if normalize_name(name) not in kept_keys]
    if lost:
        stayed: dict[str, int] = {}
        for name in Authorship.objects.filter(printed_as(lost), researcher=person).values_list(
            "name", flat=True
        ):
            stayed[name] = stayed.get(name, 0) + 1
        said += [
            ngettext(
                "%(count)d author row of “%(name)s” stays linked to %(person)s, though the "
                "name is no longer theirs: take it off on its paper's page if it is not them.",
                "%(count)d author rows of “%(name)s” stay linked to %(person)s, though the "
                "name is no longer theirs: take them off on each paper's page if they are "
                "not them.",
                count,
            )
            % {"count": count, "name": name, "person": person}
            for name, count in stayed.items()
        ]
    return said


def printed_as(names: Iterable[str]) -> Q:
    """Author rows printed with any of `names`, whatever the case."""
    condition = Q(pk__in=[])
    for name in names:
        condition |= Q(name__iexact=name)
    return condition
