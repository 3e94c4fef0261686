"""Researcher identity, stage 2 (issue 25): an author row's outsider key points at the
ExternalPerson proxy (people 0022), with its constraint back."""

import django.db.models.deletion
from django.db import migrations, models

HELP = (
    "Who this author is when not a member, if staff keep a record of them. Filled in from "
    "the name when left empty."
)


class Migration(migrations.Migration):
    dependencies = [
        ("people", "0022_stage2_external_person_proxy"),
        ("publications", "0031_stage2_outside_authors"),
    ]

    operations = [
        migrations.AlterField(
            model_name="authorship",
            name="external",
            field=models.ForeignKey(
                blank=True,
                help_text=HELP,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="outside_authorships",
                to="people.externalperson",
                verbose_name="external person",
            ),
        ),
        migrations.AlterField(
            model_name="historicalauthorship",
            name="external",
            field=models.ForeignKey(
                blank=True,
                db_constraint=False,
                help_text=HELP,
                null=True,
                on_delete=django.db.models.deletion.DO_NOTHING,
                related_name="+",
                to="people.externalperson",
                verbose_name="external person",
            ),
        ),
    ]
