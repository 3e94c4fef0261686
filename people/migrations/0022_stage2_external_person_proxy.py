"""Researcher identity, stage 2 (issue 25): with every outsider a researcher (0021) and every
key moved (0021, publications 0031), the old table goes and ExternalPerson becomes a proxy of
Researcher listing those without a profile; the outsider keys point at it again, with their
constraints. Researchers share one rule for slugs, ORCID iDs and dblp ids; the initials rule
is a member's only (Person.clean_fields)."""

import django.db.models.deletion
import django.db.models.manager
from django.db import migrations, models

import base.validation


class Migration(migrations.Migration):
    dependencies = [
        ("people", "0021_stage2_outsiders_become_researchers"),
        ("publications", "0031_stage2_outside_authors"),
    ]

    operations = [
        migrations.DeleteModel(name="HistoricalExternalPerson"),
        migrations.DeleteModel(name="ExternalPerson"),
        migrations.CreateModel(
            name="ExternalPerson",
            fields=[],
            options={
                "verbose_name": "external person",
                "verbose_name_plural": "external people",
                "ordering": ["name", "slug"],
                "proxy": True,
                "indexes": [],
                "constraints": [],
            },
            bases=("people.researcher",),
        ),
        migrations.AlterField(
            model_name="identitychange",
            name="record",
            field=models.ForeignKey(
                db_constraint=False,
                help_text="A merge: the record kept. A split: the record the rows were taken from.",
                null=True,
                on_delete=django.db.models.deletion.DO_NOTHING,
                related_name="+",
                to="people.externalperson",
            ),
        ),
        migrations.AlterField(
            model_name="identitychange",
            name="other",
            field=models.ForeignKey(
                db_constraint=False,
                help_text="A split: the record the rows went to.",
                null=True,
                on_delete=django.db.models.deletion.DO_NOTHING,
                related_name="+",
                to="people.externalperson",
            ),
        ),
        migrations.AlterField(
            model_name="advising",
            name="external_advisor",
            field=models.ForeignKey(
                blank=True,
                help_text="The advisor, when outside the lab.",
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="outside_students",
                to="people.externalperson",
            ),
        ),
        migrations.AlterField(
            model_name="historicaladvising",
            name="external_advisor",
            field=models.ForeignKey(
                blank=True,
                db_constraint=False,
                help_text="The advisor, when outside the lab.",
                null=True,
                on_delete=django.db.models.deletion.DO_NOTHING,
                related_name="+",
                to="people.externalperson",
            ),
        ),
        migrations.AlterField(
            model_name="collaboration",
            name="external_collaborator",
            field=models.ForeignKey(
                blank=True,
                help_text="The collaborator, when outside the lab.",
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="outside_collaborations",
                to="people.externalperson",
            ),
        ),
        migrations.AlterField(
            model_name="historicalcollaboration",
            name="external_collaborator",
            field=models.ForeignKey(
                blank=True,
                db_constraint=False,
                help_text="The collaborator, when outside the lab.",
                null=True,
                on_delete=django.db.models.deletion.DO_NOTHING,
                related_name="+",
                to="people.externalperson",
            ),
        ),
        migrations.AlterField(
            model_name="historicalperson",
            name="name",
            field=models.CharField(
                help_text="The name as the person writes it.",
                max_length=200,
                validators=[base.validation.validate_visible_name],
            ),
        ),
        migrations.AlterField(
            model_name="historicalperson",
            name="slug",
            field=models.SlugField(
                help_text="A member's profile address: /people/slug/. Names the researcher in the seeded data and exports; members and external people share one set of addresses.",
                max_length=200,
                verbose_name="web address (slug)",
            ),
        ),
        migrations.AlterField(
            model_name="historicalresearcher",
            name="name",
            field=models.CharField(
                help_text="The name as the person writes it.",
                max_length=200,
                validators=[base.validation.validate_visible_name],
            ),
        ),
        migrations.AlterField(
            model_name="historicalresearcher",
            name="slug",
            field=models.SlugField(
                help_text="A member's profile address: /people/slug/. Names the researcher in the seeded data and exports; members and external people share one set of addresses.",
                max_length=200,
                verbose_name="web address (slug)",
            ),
        ),
        migrations.AlterField(
            model_name="researcher",
            name="name",
            field=models.CharField(
                help_text="The name as the person writes it.",
                max_length=200,
                validators=[base.validation.validate_visible_name],
            ),
        ),
        migrations.AlterField(
            model_name="researcher",
            name="slug",
            field=models.SlugField(
                help_text="A member's profile address: /people/slug/. Names the researcher in the seeded data and exports; members and external people share one set of addresses.",
                max_length=200,
                unique=True,
                verbose_name="web address (slug)",
            ),
        ),
        migrations.AddConstraint(
            model_name="researcher",
            constraint=models.UniqueConstraint(
                condition=models.Q(("dblp", ""), _negated=True),
                fields=("dblp",),
                name="researcher_dblp_unique",
                violation_error_message="Another person has this dblp identifier: if they are one person, merge the two instead.",
            ),
        ),
        migrations.AlterConstraint(
            model_name="researcher",
            name="researcher_orcid_unique",
            constraint=models.UniqueConstraint(
                condition=models.Q(("orcid", ""), _negated=True),
                fields=("orcid",),
                name="researcher_orcid_unique",
                violation_error_message="Another person has this ORCID iD: if they are one person, merge the two instead.",
            ),
        ),
    ]
