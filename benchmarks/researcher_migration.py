"""The Researcher migrations (people 0020 to 0022, publications 0031 to 0033) on a generated
database: every count and every link compared before and after, and the time it takes.

    DEBUG=1 .venv/bin/python -m benchmarks.researcher_migration --papers 20000

Uses DATABASE_URL's database (a fresh SQLite file by default); the database must be empty.
With --existing, it migrates DATABASE_URL's database as found instead (a copy of a seeded or a
live site's database, left at people 0018), comparing the same way.
tests/people/test_researcher_migration.py runs the same comparison on a small department.
"""

import argparse
import os
import tempfile
import time
from collections.abc import Callable
from typing import Any

BEFORE_PEOPLE = ("people", "0019_images26_images")
# Apps with a migration after the researcher's that depends on it: where they stand before.
# None: an app made after it (talks and events, datasets and software), not yet there at all.
BEFORE_OTHERS: dict[str, str | None] = {
    "publications": "0030_bibreview_saved_keys",
    "events": None,
    "outputs": None,
    "projects": None,
}
# Keys naming an outsider, whose id changes (stage 2: outsiders become researchers): compared
# by the human they name instead ("authors", "advisors", "collaborators", "identity changes").
OUTSIDER_KEYS = (
    "external_id",
    "external_advisor_id",
    "external_collaborator_id",
    "record_id",
    "other_id",
    "other_snapshot",
)
# The keys naming a human: a member's and an outsider's before stage 3, one researcher key
# after (the member key's column, for advisors and collaborators). Compared by the human they
# name ("authors", "advisors", "collaborators" and their history), not by value.
HUMAN_KEYS = {
    ("publications", "Authorship"): ("person_id", "external_id", "researcher_id"),
    ("people", "Advising"): ("advisor_id", "external_advisor_id", "advisor_id"),
    ("people", "Collaboration"): ("collaborator_id", "external_collaborator_id", "collaborator_id"),
}
HUMAN_KEYED = {
    f"{app}.{prefix}{model.lower()}": keys
    for (app, model), keys in HUMAN_KEYS.items()
    for prefix in ("", "historical")
}
# The outsiders' history: its own table before stage 2, researcher rows without profile after.
OUTSIDER_HISTORY = "people.historicalexternalperson"
# The apps whose rows the migration may touch: every row of theirs is compared.
COMPARED_APPS = ("people", "publications", "news")
# The researcher's fields a profile (and its history) gains: empty, nothing to compare.
NEW_IDENTITY_FIELDS = ("affiliation", "dblp", "homepage")
# Columns added after the researcher migrations: each translated text's own (issue 29,
# base/translations.py), empty after them as before.
TRANSLATED_SUFFIX = "_zh_hans"


def generate(apps: Any, *, members: int, outsiders: int, papers: int) -> None:
    """A department in the schema before the migration, as the seed and real use leave it:
    members (aliases, pending aliases, ORCID iDs, history rows), outsiders, papers whose authors
    are members, outsiders, proposed members or nobody, advising and collaboration links of
    both kinds, CV rows and memberships."""
    Person = apps.get_model("people", "Person")
    HistoricalPerson = apps.get_model("people", "HistoricalPerson")
    ExternalPerson = apps.get_model("people", "ExternalPerson")
    RoleGroup = apps.get_model("people", "RoleGroup")
    ResearchGroup = apps.get_model("people", "ResearchGroup")
    Membership = apps.get_model("people", "Membership")
    Education = apps.get_model("people", "Education")
    Advising = apps.get_model("people", "Advising")
    Collaboration = apps.get_model("people", "Collaboration")
    Publication = apps.get_model("publications", "Publication")
    Authorship = apps.get_model("publications", "Authorship")

    students = RoleGroup.objects.create(name="PhD Students", slug="phd-students")
    group = ResearchGroup.objects.create(name="Systems", slug="systems")
    people = Person.objects.bulk_create(
        Person(
            name=f"Member {n:05d}",
            slug=f"member-{n:05d}",
            aliases=f"M. {n:05d}\nMember Number {n}" if n % 3 == 0 else "",
            pending_aliases=f"Mem {n}" if n % 5 == 0 else "",
            orcid=f"0000-0002-{n // 1000 % 10000:04d}-{n % 1000:03d}X" if n % 4 == 0 else "",
            role_group=students if n % 2 else None,
            is_published=n % 7 != 0,
        )
        for n in range(members)
    )
    kept = {field.attname for field in HistoricalPerson._meta.concrete_fields}
    HistoricalPerson.objects.bulk_create(
        HistoricalPerson(
            **{
                field.attname: getattr(person, field.attname)
                for field in Person._meta.concrete_fields
                if field.attname in kept
            },
            history_date="2026-01-01T00:00:00Z",
            history_type="+",
        )
        for person in people
    )
    externals = ExternalPerson.objects.bulk_create(
        ExternalPerson(
            name=f"Outsider {n:05d}",
            slug=f"outsider-{n:05d}",
            aliases=f"O. {n:05d}" if n % 2 else "",
            affiliation="Elsewhere" if n % 3 else "",
            dblp=f"{n % 100}/{n}" if n % 4 == 0 else "",
        )
        for n in range(outsiders)
    )
    HistoricalExternalPerson = apps.get_model("people", "HistoricalExternalPerson")
    HistoricalExternalPerson.objects.bulk_create(
        HistoricalExternalPerson(
            **{field: getattr(outsider, field) for field in OUTSIDER_FIELDS},
            id=outsider.pk,
            history_date="2026-01-01T00:00:00Z",
            history_type="+",
        )
        for outsider in externals
    )
    # A merge and a split the log can undo: their ids and snapshot name outsiders.
    IdentityChange = apps.get_model("people", "IdentityChange")
    if len(externals) > 1:
        IdentityChange.objects.create(
            kind="merge",
            summary="Merged",
            record=externals[0],
            other_snapshot={"id": externals[1].pk + 10_000, "slug": "merged-away"},
            moved={},
        )
        IdentityChange.objects.create(
            kind="split", summary="Split", record=externals[0], other=externals[1], moved={}
        )
    Membership.objects.bulk_create(
        Membership(group=group, person=person, start="2020") for person in people[::2]
    )
    degrees = Education.objects.bulk_create(
        Education(person=person, position=1, degree="Ph.D.", institution="A University")
        for person in people
    )
    Advising.objects.bulk_create(
        Advising(
            advisee=person,
            position=1,
            advisor=people[(n + 1) % members] if n % 2 else None,
            external_advisor=None if n % 2 else externals[n % outsiders],
            degree=degrees[n],
        )
        for n, person in enumerate(people)
    )
    Collaboration.objects.bulk_create(
        Collaboration(
            person=person,
            position=1,
            collaborator=people[(n + 2) % members] if n % 3 else None,
            external_collaborator=None if n % 3 else externals[(n + 1) % outsiders],
        )
        for n, person in enumerate(people)
    )
    publications = Publication.objects.bulk_create(
        Publication(
            title=f"Paper {n:06d}",
            slug=f"paper-{n:06d}",
            year=2000 + n % 25,
            search_text=f"paper {n:06d}",
        )
        for n in range(papers)
    )
    authors = []
    for n, publication in enumerate(publications):
        member, outsider = people[n % members], externals[n % outsiders]
        authors += [
            Authorship(publication=publication, position=1, name=member.name, person=member),
            Authorship(publication=publication, position=2, name=outsider.name, external=outsider),
            # A name nobody is known by, and one a member proposed as theirs.
            Authorship(publication=publication, position=3, name=f"Stranger {n}"),
            Authorship(
                publication=publication,
                position=4,
                name=f"Maybe {n}",
                proposed_person=people[(n + 3) % members] if n % 10 == 0 else None,
                link_declined=n % 10 == 5,
            ),
        ]
    Authorship.objects.bulk_create(authors, batch_size=2000)


# The keys naming an author's human, in the schema before stage 3 and after: those a row has.
AUTHOR_FIELDS = ("person", "external", "researcher")


def _who(row: Any, *fields: str) -> str:
    """The human a row's foreign keys name, by name and slug; "" for nobody. A field the
    row's schema lacks names nobody."""
    for field in fields:
        if (someone := getattr(row, field, None)) is not None:
            return f"{someone.name} ({someone.slug})"
    return ""


def snapshot(apps: Any) -> dict[str, Any]:
    """Every row of the compared apps, field by field (the fields both schemas have), and
    which human every author, advisor, collaborator and proposal stands for, by name."""
    state: dict[str, Any] = {}
    for app in COMPARED_APPS:
        for model in apps.get_app_config(app).get_models():
            label = model._meta.label_lower
            if label in ("people.researcher", "people.historicalresearcher", OUTSIDER_HISTORY):
                continue  # new, or moved: compared below
            if label == "people.externalperson":
                state[label] = _outsiders(apps, model)
                continue
            columns = sorted(
                field.attname
                for field in model._meta.concrete_fields
                # The profile's key: `id` before, the researcher link after (same values).
                if field.attname not in ("id", "researcher_id", *OUTSIDER_KEYS)
                and field.attname not in NEW_IDENTITY_FIELDS
                and not field.attname.endswith(TRANSLATED_SUFFIX)
                and field.attname not in HUMAN_KEYED.get(label, ())
            )
            key = "slug" if label == "people.person" else model._meta.pk.attname
            if label == "people.historicalperson":
                key = "history_id"
            rows = model._default_manager.order_by(key).values_list(key, *columns)
            state[label] = {"count": len(rows), "columns": columns, "rows": list(rows)}
    state[OUTSIDER_HISTORY] = _outsider_history(apps)
    Authorship = apps.get_model("publications", "Authorship")
    Advising = apps.get_model("people", "Advising")
    Collaboration = apps.get_model("people", "Collaboration")
    state["authors"] = [
        (row.publication.slug, row.position, row.name, _who(row, *AUTHOR_FIELDS))
        for row in Authorship.objects.select_related("publication").order_by("pk")
    ]
    for (app, model), keys in HUMAN_KEYS.items():
        state[f"{model.lower()} history"] = _history_humans(apps, app, model, keys)
    state["proposals"] = [
        (row.pk, _who(row, "proposed_person"))
        for row in Authorship.objects.exclude(proposed_person=None).order_by("pk")
    ]
    state["advisors"] = [
        (row.advisee.slug, row.position, _who(row, "external_advisor", "advisor"))
        for row in Advising.objects.select_related("advisee").order_by("pk")
    ]
    state["collaborators"] = [
        (row.person.slug, row.position, _who(row, "external_collaborator", "collaborator"))
        for row in Collaboration.objects.select_related("person").order_by("pk")
    ]
    IdentityChange = apps.get_model("people", "IdentityChange")
    state["identity changes"] = [
        (row.pk, row.kind, _who(row, "record"), _who(row, "other"), row.other_snapshot.get("slug"))
        for row in IdentityChange.objects.order_by("pk")
    ]
    return state


OUTSIDER_FIELDS = ("name", "slug", "aliases", "orcid", "dblp", "affiliation", "homepage")


def _history_humans(apps: Any, app: str, model: str, keys: tuple[str, str, str]) -> list:
    """Which human each history row of `model` names, by slug ("" for nobody): read as ids and
    looked up in one dictionary per model, not a query per row (80,000 author rows at 20,000
    papers). Before stage 3 a member key and an outsider key, after it one researcher key."""
    history = apps.get_model(app, f"Historical{model}")._default_manager
    member, outsider, one = keys
    columns = {field.attname for field in history.model._meta.concrete_fields}

    def slugs(name: str) -> dict[int, str]:
        return dict(apps.get_model("people", name)._base_manager.values_list("pk", "slug"))

    if outsider in columns:
        read = {member: slugs("Person"), outsider: slugs("ExternalPerson")}
    else:
        read = {one: slugs("Researcher")}
    found = []
    for history_id, *ids in history.order_by("history_id").values_list("history_id", *read):
        named = [
            names.get(pk, f"#{pk}")
            for names, pk in zip(read.values(), ids, strict=True)
            if pk is not None
        ]
        found.append((history_id, named[0] if named else ""))
    return found


def _outsiders(apps: Any, model: Any) -> dict[str, Any]:
    """The external people, by slug: a table before stage 2, researchers without a profile
    after (a proxy, whose migration-state manager lists every researcher)."""
    rows = model._base_manager.order_by("slug")
    if model._meta.proxy:
        rows = rows.filter(profile__isnull=True)
    found = list(rows.values_list(*OUTSIDER_FIELDS))
    return {"count": len(found), "rows": found}


def _outsider_history(apps: Any) -> dict[str, Any]:
    """The outsiders' history rows, without their ids: their own table before stage 2,
    researcher history rows of no member after."""
    fields = (*OUTSIDER_FIELDS, "history_type", "history_date", "history_change_reason")
    try:
        rows = apps.get_model("people", "HistoricalExternalPerson")._default_manager.all()
    except LookupError:
        members = apps.get_model("people", "Person")._base_manager.values("pk")
        history = apps.get_model("people", "HistoricalResearcher")._default_manager
        rows = history.exclude(id__in=members)
    found = sorted(rows.values_list(*fields))
    return {"count": len(found), "rows": found}


def researchers_match_profiles(apps: Any) -> list[str]:
    """After the migration: every member has a researcher with the profile's id and name."""
    Person = apps.get_model("people", "Person")
    Researcher = apps.get_model("people", "Researcher")
    problems = []
    researchers = dict(Researcher.objects.filter(profile__isnull=False).values_list("pk", "name"))
    for pk, name in Person.objects.values_list("pk", "name"):
        if researchers.get(pk) != name:
            problems.append(f"profile {pk} ({name}): researcher {researchers.get(pk)!r}")
    if len(researchers) != Person.objects.count():
        problems.append(f"{len(researchers)} researchers for {Person.objects.count()} profiles")
    return problems


def differences(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """What changed, one line per table or link list; [] when nothing did."""
    found = []
    for name in sorted(before.keys() | after.keys()):
        old, new = before.get(name), after.get(name)
        if old is None and isinstance(new, dict) and new.get("count") == 0:
            continue  # a table made by a later migration (the claims queue): empty, as it must be
        if old != new:
            count = f"{len(old or [])} → {len(new or [])}"
            found.append(f"{name}: differs ({count} entries)")
    return found


def run_migration(
    connection: Any, *, members: int, outsiders: int, papers: int, log: Callable[[str], None]
) -> list[str]:
    """Migrate back to before the migration, generate, record, migrate forward, compare.
    Returns the differences (none when the migration kept everything)."""

    def fill(old: Any) -> None:
        started = time.perf_counter()
        generate(old, members=members, outsiders=outsiders, papers=papers)
        log(f"generated in {time.perf_counter() - started:.1f} s")

    return compare_across(connection, fill=fill, log=log)


def migrate_existing(connection: Any, *, log: Callable[[str], None]) -> list[str]:
    """Record a database left just before the migration (a copy of a seeded or a live site's),
    migrate it forward, compare. Returns the differences."""
    return compare_across(connection, fill=None, log=log)


def compare_across(
    connection: Any, *, fill: Callable[[Any], None] | None, log: Callable[[str], None]
) -> list[str]:
    """Every app at its latest migration, people just before the researcher's: `fill` the
    database there (or take it as it is), record it, migrate forward, compare."""
    from django.db.migrations.executor import MigrationExecutor

    executor = MigrationExecutor(connection)
    after = executor.loader.graph.leaf_nodes()
    before = [
        BEFORE_PEOPLE if app == "people" else (app, BEFORE_OTHERS.get(app, name))
        for app, name in after
    ]
    executor.migrate(before)
    try:
        executor.loader.build_graph()
        old = executor.loader.project_state([node for node in before if node[1]]).apps
        if fill is not None:
            fill(old)
        recorded = snapshot(old)
        log(
            "before: "
            + ", ".join(
                f"{label} {recorded[label]['count']:,}" for label in COUNTED if label in recorded
            )
        )
    finally:
        # Forward again even when generating failed, so the database is left as it was found.
        executor = MigrationExecutor(connection)
        started = time.perf_counter()
        executor.migrate(after)
        log(f"migrated in {time.perf_counter() - started:.1f} s")
    executor.loader.build_graph()
    new = executor.loader.project_state(after).apps
    return differences(recorded, snapshot(new)) + researchers_match_profiles(new)


COUNTED = (
    "people.person",
    "people.externalperson",
    "people.historicalperson",
    "people.advising",
    "people.collaboration",
    "publications.publication",
    "publications.authorship",
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=20_000)
    parser.add_argument("--members", type=int, default=400)
    parser.add_argument("--outsiders", type=int, default=3_000)
    parser.add_argument(
        "--existing",
        action="store_true",
        help="migrate DATABASE_URL's database as it is (a copy of a seeded or live site's, at "
        "people 0018) instead of generating one",
    )
    options = parser.parse_args()
    if "DATABASE_URL" not in os.environ:
        folder = tempfile.mkdtemp(prefix="researcher-migration-")
        os.environ["DATABASE_URL"] = f"sqlite:///{folder}/db.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    if options.existing:
        print(f"{connection.vendor}, the database as found")
        found = migrate_existing(connection, log=print)
    else:
        call_command("migrate", verbosity=0)
        print(f"{connection.vendor}, {options.papers:,} papers")
        found = run_migration(
            connection,
            members=options.members,
            outsiders=options.outsiders,
            papers=options.papers,
            log=print,
        )
    print("differences:", len(found))
    for line in found:
        print(" ", line)


if __name__ == "__main__":
    main()
