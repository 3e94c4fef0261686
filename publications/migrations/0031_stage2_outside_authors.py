"""Researcher identity, stage 2 (issue 25): an author row's outsider key follows its external
person into the researchers (people 0021): the same id plus the largest member id. The key
points at the researchers without a constraint until people 0022 has made ExternalPerson a
proxy; publications 0032 then points it there, with its constraint."""

from importlib import import_module

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import F


def outside_authors_follow(apps, schema_editor):
    # The offset is people 0021's, computed the same way (the largest member id).
    people_0021 = import_module("people.migrations.0021_stage2_outsiders_become_researchers")
    offset = people_0021.outsider_offset(apps)
    for model in ("Authorship", "HistoricalAuthorship"):
        rows = apps.get_model("publications", model).objects.filter(external__isnull=False)
        rows.update(external_id=F("external_id") + offset)


HELP = (
    "Who this author is when not a member, if staff keep a record of them. Filled in from "
    "the name when left empty."
)


def in_passing(on_delete):
    return models.ForeignKey(
        blank=True,
        db_constraint=False,
        help_text=HELP,
        null=True,
        on_delete=on_delete,
        related_name="+",
        to="people.researcher",
        verbose_name="external person",
    )


class Migration(migrations.Migration):
    dependencies = [
        ("people", "0021_stage2_outsiders_become_researchers"),
        ("publications", "0030_bibreview_saved_keys"),
    ]

    operations = [
        migrations.AlterField(
            model_name="authorship",
            name="external",
            field=in_passing(django.db.models.deletion.SET_NULL),
        ),
        migrations.AlterField(
            model_name="historicalauthorship",
            name="external",
            field=in_passing(django.db.models.deletion.DO_NOTHING),
        ),
        # Back: people 0021 refuses unless there is no outsider, so no key to move back.
        migrations.RunPython(outside_authors_follow, migrations.RunPython.noop, elidable=False),
    ]
