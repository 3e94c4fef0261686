"""Merging two records of one external person, splitting wrongly linked author rows off a
record, and undoing either; giving a person a login, and what a login linked to a person needs
to sign in; which aliases a person may go by. Called by the admin (people/admin.py) and by tests alike.

Every row either moves is saved with its history (the change reason names the merge or split),
and an IdentityChange logs exactly which rows moved, so an undo puts back those rows and no
others. A merge moves every row that points at the absorbed record, whatever app it is in (author
rows, advising links, close collaborators): the relations are read from the model, so a relation
added later moves too, and this module needs no app above it.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, User
from django.contrib.auth.tokens import default_token_generator
from django.db import models, transaction
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.text import slugify
from simple_history.utils import bulk_update_with_history

from base.roles import MEMBER_LOGINS_GROUP, is_editor
from people.models import ExternalPerson, IdentityChange, KnownByNames, Person, Researcher
from people.names import normalize_name

# What a merge copies from the absorbed record into the kept one, where the kept one has none.
IDENTIFIERS = ["affiliation", "orcid", "dblp", "homepage"]

# Who made a change, for its history rows (the project keeps Django's User as its login
# model); None for a command or a test.
Editor = User | None


class IdentityChangeRefused(ValueError):
    """A merge, split or undo that would lose or confuse data; the message says why."""


@dataclass(frozen=True)
class UndoResult:
    restored: int
    # Rows the change moved that were deleted or moved again since: left as they are.
    skipped: int


def pointing_relations(model: type[models.Model]) -> list[models.ForeignKey[Any, Any]]:
    """The foreign keys of other models that point at `model`, except hidden ones (the log's
    own, and the history tables'). For Researcher: the one key of every author, advisor and
    collaborator row (a merge or split moves that one column)."""
    return [
        relation.field
        for relation in model._meta.related_objects
        if relation.one_to_many
        and not relation.hidden
        and isinstance(relation.field, models.ForeignKey)
    ]


def move_rows(
    *, rows: list[models.Model], field: str, to: Researcher, reason: str, user: Editor
) -> list[int]:
    """Point `field` of each row at `to`, recording each row's history. Returns their ids."""
    if not rows:
        return []
    model = type(rows[0])
    for row in rows:
        setattr(row, field, to)
    if hasattr(model, "history"):
        bulk_update_with_history(
            rows, model, [field], default_user=user, default_change_reason=reason
        )
    else:
        model._default_manager.bulk_update(rows, [field])
    return [row.pk for row in rows]


def save_with_history(record: models.Model, *, reason: str, user: Editor) -> None:
    record._change_reason = reason  # type: ignore[attr-defined]
    if user is not None:
        record._history_user = user  # type: ignore[attr-defined]
    record.save()


def delete_with_history(record: models.Model, *, reason: str, user: Editor) -> None:
    record._change_reason = reason  # type: ignore[attr-defined]
    if user is not None:
        record._history_user = user  # type: ignore[attr-defined]
    record.delete()


def unique_slug(name: str) -> str:
    """The name's slug, numbered when a member or a record has it already: "xin-jin",
    "xin-jin-2" (members and external people share one set of addresses)."""
    base = slugify(name)[:190] or "person"
    return numbered(base, taken=Researcher.objects.filter(slug__startswith=base), field="slug")


def numbered(base: str, *, taken: models.QuerySet[Any], field: str) -> str:
    """`base`, or `base-2`, `base-3`… : the first that no row of `taken` has in `field`."""
    used = set(taken.values_list(field, flat=True))
    name, number = base, 1
    while name in used:
        number += 1
        name = f"{base}-{number}"
    return name


@transaction.atomic
def merge_external_people(
    *, keep: ExternalPerson, absorb: ExternalPerson, user: Editor = None
) -> IdentityChange:
    """Make `absorb` part of `keep`: its rows point at `keep`, its name and aliases become
    aliases of `keep`, its identifiers fill those `keep` lacks, and `absorb` is deleted.

    Refused for one record with itself, and when both have different ORCIDs or dblp
    identifiers: those say they are two people.
    """
    if keep.pk == absorb.pk:
        raise IdentityChangeRefused("Choose two different records to merge.")
    for name, label in (("orcid", "ORCID"), ("dblp", "dblp identifier")):
        kept, absorbed = getattr(keep, name), getattr(absorb, name)
        if kept and absorbed and kept != absorbed:
            raise IdentityChangeRefused(
                f"“{keep.name}” and “{absorb.name}” have different {label}s ({kept}, "
                f"{absorbed}): they are two people."
            )
    reason = f"Merged “{absorb.name}” (#{absorb.pk}) into “{keep.name}” (#{keep.pk})"
    # Every relation is logged, those with no row too: a record with no rows merges (and its
    # log, which may not be empty, says so) as well as one with many.
    moved: dict[str, dict[str, Any]] = {}
    for relation in pointing_relations(Researcher):
        label = relation.model._meta.label_lower
        moved.setdefault(label, {"field": relation.name, "ids": []})
        rows = list(relation.model._default_manager.filter(**{relation.name: absorb}))
        if rows:
            ids = move_rows(rows=rows, field=relation.name, to=keep, reason=reason, user=user)
            moved[label] = {"field": relation.name, "ids": ids}

    known = keep.name_keys()
    added_aliases = []
    for name in [absorb.name, *absorb.alias_list]:
        if normalize_name(name) not in known:
            added_aliases.append(name)
            known.add(normalize_name(name))
    filled = {field: getattr(absorb, field) for field in IDENTIFIERS if not getattr(keep, field)}
    filled = {field: value for field, value in filled.items() if value}
    snapshot = {field.attname: getattr(absorb, field.attname) for field in absorb._meta.fields}
    # Deleted first: the kept record may take over its ORCID, which is unique.
    delete_with_history(absorb, reason=reason, user=user)
    keep.aliases = "\n".join([*keep.alias_list, *added_aliases])
    for field, value in filled.items():
        setattr(keep, field, value)
    save_with_history(keep, reason=reason, user=user)

    count = sum(len(rows["ids"]) for rows in moved.values())
    return IdentityChange.objects.create(
        kind=IdentityChange.Kind.MERGE,
        summary=f"Merged “{absorb.name}” into “{keep.name}”: {count} row{'s' * (count != 1)} "
        "moved.",
        record=keep,
        other_snapshot=snapshot,
        moved=moved,
        record_before={"aliases_added": added_aliases, "filled": filled},
        made_by=user,
    )


@transaction.atomic
def split_author_rows(
    *,
    record: ExternalPerson,
    authorship_ids: Iterable[int],
    into: ExternalPerson | None = None,
    user: Editor = None,
) -> IdentityChange:
    """Take author rows wrongly linked to `record` off it: onto `into`, or onto a new record
    named as the first row is printed.

    A new record shares `record`'s name, so later author rows of that name are linked to
    neither: two people with one name are never told apart by guess.
    """
    rows = list(record.authorships.filter(pk__in=list(authorship_ids)).order_by("pk"))
    if not rows:
        raise IdentityChangeRefused(f"Choose at least one author row of “{record.name}”.")
    if into is not None and into.pk == record.pk:
        raise IdentityChangeRefused("Choose another record to move the rows to.")
    created = into is None
    if into is None:
        printed = list(dict.fromkeys(row.name for row in rows))
        into = ExternalPerson(name=printed[0], slug=unique_slug(printed[0]))
        into.aliases = "\n".join(printed[1:])
        save_with_history(into, reason=f"Split off “{record.name}” (#{record.pk})", user=user)
    reason = f"Split off “{record.name}” (#{record.pk}) onto “{into.name}” (#{into.pk})"
    ids = move_rows(rows=rows, field="researcher", to=into, reason=reason, user=user)
    label = rows[0]._meta.label_lower
    return IdentityChange.objects.create(
        kind=IdentityChange.Kind.SPLIT,
        summary=f"Split {len(ids)} author row{'s' * (len(ids) != 1)} off “{record.name}” onto "
        f"{'a new record' if created else 'the record'} “{into.name}”.",
        record=record,
        other=into,
        other_was_created=created,
        moved={label: {"field": "researcher", "ids": ids}},
        made_by=user,
    )


@transaction.atomic
def undo_identity_change(*, change: IdentityChange, user: Editor = None) -> UndoResult:
    """Put back what `change` moved: the rows it moved that still point where it put them go
    back, and a merged record is recreated with its own id, name, aliases and identifiers."""
    change = IdentityChange.objects.select_for_update().get(pk=change.pk)
    if change.undone_at is not None:
        raise IdentityChangeRefused("This change has been undone already.")
    record = _record(change.record_id)
    if record is None:
        raise IdentityChangeRefused(
            "The record this change kept has been deleted or merged since: undo that first."
        )
    if change.kind == IdentityChange.Kind.MERGE:
        result = _undo_merge(change, record, user)
    else:
        result = _undo_split(change, record, user)
    IdentityChange.objects.filter(pk=change.pk).update(undone_at=timezone.now(), undone_by=user)
    return result


def _undo_merge(change: IdentityChange, keep: ExternalPerson, user: Editor) -> UndoResult:
    snapshot = change.other_snapshot
    if Researcher.objects.filter(slug=snapshot["slug"]).exists():
        raise IdentityChangeRefused(
            f"Another member or record has the address “{snapshot['slug']}” now: rename it first."
        )
    reason = f"Undid the merge of “{snapshot['name']}” (#{snapshot['id']}) into “{keep.name}”"
    added = set(change.record_before.get("aliases_added", []))
    keep.aliases = "\n".join(alias for alias in keep.alias_list if alias not in added)
    for field, value in change.record_before.get("filled", {}).items():
        if getattr(keep, field) == value:
            setattr(keep, field, "")
    # Saved first: the recreated record takes back its ORCID, which is unique.
    save_with_history(keep, reason=reason, user=user)
    absorbed = ExternalPerson(**snapshot)
    save_with_history(absorbed, reason=reason, user=user)
    return _move_back(change, source=keep, to=absorbed, reason=reason, user=user)


def _undo_split(change: IdentityChange, record: ExternalPerson, user: Editor) -> UndoResult:
    other = _record(change.other_id)
    if other is None:
        raise IdentityChangeRefused(
            "The record the rows went to has been deleted or merged since: undo that first."
        )
    reason = f"Undid the split of author rows off “{record.name}” (#{record.pk})"
    result = _move_back(change, source=other, to=record, reason=reason, user=user)
    still_used = any(
        relation.model._default_manager.filter(**{relation.name: other}).exists()
        for relation in pointing_relations(Researcher)
    )
    if change.other_was_created and not still_used:
        delete_with_history(other, reason=reason, user=user)
    return result


def _record(record_id: int | None) -> ExternalPerson | None:
    """The record the log names, if it exists (again)."""
    return ExternalPerson.objects.filter(pk=record_id).first() if record_id else None


def _move_back(
    change: IdentityChange, *, source: Researcher, to: Researcher, reason: str, user: Editor
) -> UndoResult:
    restored = skipped = 0
    for label, moved in change.moved.items():
        model = apps.get_model(label)
        field = moved["field"]
        rows = list(model._default_manager.filter(pk__in=moved["ids"], **{field: source}))
        move_rows(rows=rows, field=field, to=to, reason=reason, user=user)
        restored += len(rows)
        skipped += len(moved["ids"]) - len(rows)
    return UndoResult(restored=restored, skipped=skipped)


def let_login_edit_profile(*, user: User) -> list[str]:
    """Give a login linked to a person what a member needs to sign in to the admin and edit
    their profile: staff status, and the Member logins group unless it is an editor's. Without
    them the sign-in page says the password is wrong, which no one can act on. Returns what was
    given, as staff would read it (nothing when the login had it all)."""
    given = []
    if not user.is_staff:
        user.is_staff = True
        user.save(update_fields=["is_staff"])
        given.append("staff status")
    if not is_editor(user):
        members = Group.objects.get(name=MEMBER_LOGINS_GROUP)
        if not user.groups.filter(pk=members.pk).exists():
            user.groups.add(members)
            given.append(f"the {MEMBER_LOGINS_GROUP} group")
    return given


class LoginRefused(ValueError):
    """A login that cannot be given; the message says why, for staff."""


@dataclass(frozen=True)
class GivenLogin:
    """A login made for a person, and the two parts of its one-time set-password address
    (Django's password reset: the login's id and a token that lapses once the password is
    set, or after PASSWORD_RESET_TIMEOUT)."""

    user: models.Model
    uidb64: str
    token: str


def unique_username(base: str) -> str:
    """`base`, numbered when a login has it already: "ada-lovelace", "ada-lovelace-2"."""
    base = base[:140] or "member"
    logins = get_user_model().objects.filter(username__startswith=base)
    return numbered(base, taken=logins, field="username")


@transaction.atomic
def give_login(*, person: Person, by: Editor = None) -> GivenLogin:
    """Make a login for `person` (named after their address, with their email), with what a
    member needs to sign in (staff status, the Member logins group), linked to them. It has no
    password: the member sets one at the returned address, so staff never type or know it.
    Refused when the person has a login already."""
    person = Person.objects.select_for_update().get(pk=person.pk)
    if person.user_id is not None:
        raise LoginRefused(
            f"{person.name} has a login already (“{person.user}”): they sign in with it. To "
            "give them a new password, open that login under Logins."
        )
    login = get_user_model()(
        username=unique_username(person.slug), email=person.email, is_staff=True
    )
    login.set_unusable_password()
    login.save()
    let_login_edit_profile(user=login)
    person.user = login
    save_with_history(person, reason="Given a login", user=by)
    return GivenLogin(
        user=login,
        uidb64=urlsafe_base64_encode(force_bytes(login.pk)),
        token=default_token_generator.make_token(login),
    )


def aliases_taken(*, aliases: Iterable[str], record: KnownByNames) -> list[str]:
    """A sentence for each of `aliases` another member or external person goes by (their name
    or an alias, compared as author lists are: people.names.normalize_name), naming them.

    An alias is a promise that an author printed so is this person: one that another person
    goes by would link their papers here and stop linking them there. Two queries, none when
    `aliases` is empty."""
    wanted = {normalize_name(alias): alias for alias in aliases}
    wanted.pop("", None)
    if not wanted:
        return []
    people = Person.objects.only("name", "slug", "aliases", "is_published")
    records = ExternalPerson.objects.only("name", "slug", "aliases", "affiliation")
    if isinstance(record, Person) and record.pk is not None:
        people = people.exclude(pk=record.pk)
    if isinstance(record, ExternalPerson) and record.pk is not None:
        records = records.exclude(pk=record.pk)
    refusals = []
    for other in [*people, *records]:
        for key in other.name_keys() & wanted.keys():
            what = "the name" if key == normalize_name(other.name) else "an alias"
            refusals.append(
                f"“{wanted.pop(key)}” is already {what} of {other.described}: an alias may "
                "name one person only. Remove it, or ask an editor whether the two are one "
                "person."
            )
    return refusals


@dataclass(frozen=True)
class MemberAliases:
    """A member's aliases as saved: those they removed go at once; those they added wait."""

    aliases: str
    pending: str
    added: list[str]


def member_aliases(*, posted: str, saved: Person) -> MemberAliases:
    """What a member's save of `posted` aliases keeps. An alias links publications to the
    profile, so one a member adds waits for an editor (`pending_aliases`); one they remove
    links nothing more, so it goes at once."""
    accepted = {normalize_name(alias) for alias in saved.alias_list}
    waiting = saved.pending_alias_list
    known = accepted | {normalize_name(alias) for alias in waiting}
    lines = [line.strip() for line in posted.splitlines() if line.strip()]
    kept = [line for line in lines if normalize_name(line) in accepted]
    added = list(
        {normalize_name(line): line for line in lines if normalize_name(line) not in known}.values()
    )
    return MemberAliases(
        aliases="\n".join(kept), pending="\n".join([*waiting, *added]), added=added
    )
