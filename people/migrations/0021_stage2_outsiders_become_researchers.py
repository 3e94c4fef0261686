"""Researcher identity, stage 2 (issue 25): every external person becomes a researcher without
a profile (docs/decisions/researcher-identity.md). Members keep their ids; an outsider's new id
is its old one plus the largest member id (`outsider_offset`), in every row that names it: the
researchers, their history, the merge-and-split log, and the outsider keys of advising and
collaboration (here) and of author rows (publications 0031). people 0022 then drops the old
table and makes ExternalPerson a proxy. Hand-written: the autodetector cannot move rows, and
its own plan for a concrete model turned proxy is a cycle."""

import django.db.models.deletion
from django.core.management.color import no_style
from django.db import migrations, models
from django.db.models import F, Max


def outsider_offset(apps) -> int:
    """What an outsider's id grows by: the largest member id, which no migration after 0020
    changes (members keep their ids). publications 0031 reads it again."""
    Person = apps.get_model("people", "Person")
    return Person.objects.aggregate(largest=Max("pk"))["largest"] or 0


class SharedIdentifier(Exception):
    """An outsider and a member with one ORCID iD or dblp id: one human twice, which one
    table's uniqueness refuses. Staff decide which record is right; the migration does not
    guess."""


def numbered_slug(slug: str, taken: set[str]) -> str:
    name, number = slug, 1
    while name in taken:
        number += 1
        name = f"{slug}-{number}"
    taken.add(name)
    return name


def outsiders_become_researchers(apps, schema_editor):
    Researcher = apps.get_model("people", "Researcher")
    ExternalPerson = apps.get_model("people", "ExternalPerson")
    HistoricalResearcher = apps.get_model("people", "HistoricalResearcher")
    HistoricalExternalPerson = apps.get_model("people", "HistoricalExternalPerson")
    IdentityChange = apps.get_model("people", "IdentityChange")
    offset = outsider_offset(apps)
    if Researcher.objects.filter(pk__gt=offset).exists():
        raise SharedIdentifier("A researcher has an id above every member's: not from 0020.")
    members = Researcher.objects.values_list("slug", "orcid", "dblp")
    taken = {slug for slug, _, _ in members}
    orcids = {orcid for _, orcid, _ in members if orcid}
    dblps = {dblp for _, _, dblp in members if dblp}
    shared = [
        outsider.name
        for outsider in ExternalPerson.objects.all()
        if (outsider.orcid and outsider.orcid in orcids)
        or (outsider.dblp and outsider.dblp in dblps)
    ]
    if shared:
        raise SharedIdentifier(
            "These external people have the ORCID iD or dblp identifier of a member: "
            f"{', '.join(shared)}. Merge or correct them before migrating."
        )
    renamed = {}
    researchers = []
    for outsider in ExternalPerson.objects.order_by("pk").iterator():
        slug = numbered_slug(outsider.slug, taken)
        if slug != outsider.slug:
            renamed[outsider.slug] = slug
        researchers.append(
            Researcher(
                id=outsider.pk + offset,
                slug=slug,
                **{
                    field: getattr(outsider, field)
                    for field in ("name", "aliases", "orcid", "dblp", "affiliation", "homepage")
                },
            )
        )
    Researcher.objects.bulk_create(researchers, batch_size=500)
    fields = ["name", "slug", "aliases", "orcid", "dblp", "affiliation", "homepage"]
    history = ["history_date", "history_change_reason", "history_type", "history_user_id"]
    HistoricalResearcher.objects.bulk_create(
        (
            HistoricalResearcher(
                id=old.id + offset,
                **{field: getattr(old, field) for field in fields + history},
            )
            for old in HistoricalExternalPerson.objects.order_by("history_id").iterator()
        ),
        batch_size=500,
    )
    # The log keeps ids without a constraint, and a merge's snapshot recreates the record.
    for change in IdentityChange.objects.all():
        change.record_id = change.record_id and change.record_id + offset
        change.other_id = change.other_id and change.other_id + offset
        snapshot = change.other_snapshot
        if snapshot.get("id"):
            snapshot["id"] += offset
            snapshot["slug"] = renamed.get(snapshot.get("slug"), snapshot.get("slug"))
        change.save(update_fields=["record", "other", "other_snapshot"])
    for statement in schema_editor.connection.ops.sequence_reset_sql(
        no_style(), [Researcher, HistoricalResearcher]
    ):
        schema_editor.execute(statement)


def outsider_keys_follow(apps, schema_editor):
    offset = outsider_offset(apps)
    for model, field in [
        ("Advising", "external_advisor"),
        ("HistoricalAdvising", "external_advisor"),
        ("Collaboration", "external_collaborator"),
        ("HistoricalCollaboration", "external_collaborator"),
    ]:
        rows = apps.get_model("people", model).objects.filter(**{f"{field}__isnull": False})
        rows.update(**{f"{field}_id": F(f"{field}_id") + offset})


def only_without_outsiders(apps, schema_editor):
    """Back, only where there is no outsider to carry back (an empty or a test database):
    moving them back out of the researchers is not written."""
    Researcher = apps.get_model("people", "Researcher")
    if Researcher.objects.filter(profile__isnull=True).exists():
        raise SharedIdentifier(
            "External people are researchers now; this migration does not move them back."
        )


def in_passing(help_text, on_delete=django.db.models.deletion.DO_NOTHING):
    """An outsider key while its rows move: to the researchers, with no constraint yet."""
    return models.ForeignKey(
        blank=True,
        db_constraint=False,
        help_text=help_text,
        null=True,
        on_delete=on_delete,
        related_name="+",
        to="people.researcher",
    )


class Migration(migrations.Migration):
    dependencies = [
        ("people", "0020_researcher2_identity"),
    ]

    operations = [
        migrations.RunPython(outsiders_become_researchers, only_without_outsiders, elidable=False),
        migrations.AlterField(
            model_name="identitychange",
            name="record",
            field=in_passing(
                "A merge: the record kept. A split: the record the rows were taken from."
            ),
        ),
        migrations.AlterField(
            model_name="identitychange",
            name="other",
            field=in_passing("A split: the record the rows went to."),
        ),
        migrations.AlterField(
            model_name="advising",
            name="external_advisor",
            field=in_passing("The advisor, when outside the lab."),
        ),
        migrations.AlterField(
            model_name="historicaladvising",
            name="external_advisor",
            field=in_passing("The advisor, when outside the lab."),
        ),
        migrations.AlterField(
            model_name="collaboration",
            name="external_collaborator",
            field=in_passing("The collaborator, when outside the lab."),
        ),
        migrations.AlterField(
            model_name="historicalcollaboration",
            name="external_collaborator",
            field=in_passing("The collaborator, when outside the lab."),
        ),
        migrations.RunPython(outsider_keys_follow, migrations.RunPython.noop, elidable=False),
    ]
