"""Researcher identity, stage 3 (issue 25): an author row names its human by one key,
`researcher`, instead of a member key and an outsider key. Since people 0021 both keys hold
researcher ids (a member's profile has its researcher's id), so the new key is
`coalesce(person_id, external_id)`, for the rows and their history alike."""

import django.db.models.deletion
from django.db import migrations, models
from django.db.models.functions import Coalesce

HELP = (
    "The lab member or external person this author is, if any. Filled in from the name when "
    "left empty."
)
MODELS = ("Authorship", "HistoricalAuthorship")
AUTHOR_ROWS = "publications.authorship"



def check_keys_now(schema_editor):
    """PostgreSQL checks the updated keys at commit (deferred constraints); the ALTER TABLEs
    after the update refuse a table with checks pending, so they are made now."""
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")


def one_key(apps, schema_editor):
    for model in MODELS:
        rows = apps.get_model("publications", model).objects.all()
        rows.update(researcher_id=Coalesce("person_id", "external_id"))
    check_keys_now(schema_editor)


def log_names_key(field):
    """The merge and split log's moved author rows name the key to move back (undo)."""

    def rename(apps, schema_editor):
        changes = apps.get_model("people", "IdentityChange").objects.all()
        for change in changes.filter(moved__has_key=AUTHOR_ROWS):
            change.moved[AUTHOR_ROWS]["field"] = field
            change.save(update_fields=["moved"])

    return rename


def two_keys(apps, schema_editor):
    """Back: a researcher with a profile is a member, any other an outsider."""
    members = apps.get_model("people", "Person").objects.values("pk")
    for model in MODELS:
        rows = apps.get_model("publications", model).objects.filter(researcher__isnull=False)
        rows.filter(researcher_id__in=members).update(person_id=models.F("researcher_id"))
        rows.exclude(researcher_id__in=members).update(external_id=models.F("researcher_id"))
    check_keys_now(schema_editor)


class Migration(migrations.Migration):
    dependencies = [
        ("people", "0022_stage2_external_person_proxy"),
        ("publications", "0034_perf24c_profile_selection_indexes"),
    ]

    operations = [
        migrations.AddField(
            model_name="authorship",
            name="researcher",
            field=models.ForeignKey(
                blank=True,
                help_text=HELP,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="authorships",
                to="people.researcher",
                verbose_name="person",
            ),
        ),
        migrations.AddField(
            model_name="historicalauthorship",
            name="researcher",
            field=models.ForeignKey(
                blank=True,
                db_constraint=False,
                help_text=HELP,
                null=True,
                on_delete=django.db.models.deletion.DO_NOTHING,
                related_name="+",
                to="people.researcher",
                verbose_name="person",
            ),
        ),
        migrations.RunPython(one_key, two_keys, elidable=False),
        migrations.RunPython(log_names_key("researcher"), log_names_key("external")),
        migrations.RemoveConstraint(
            model_name="authorship", name="authorship_member_or_external_not_both"
        ),
        migrations.RemoveIndex(model_name="authorship", name="authorship_person_publication"),
        migrations.RemoveIndex(model_name="authorship", name="authorship_external_paper"),
        migrations.RemoveField(model_name="authorship", name="person"),
        migrations.RemoveField(model_name="authorship", name="external"),
        migrations.RemoveField(model_name="historicalauthorship", name="person"),
        migrations.RemoveField(model_name="historicalauthorship", name="external"),
        migrations.AddIndex(
            model_name="authorship",
            index=models.Index(
                fields=["researcher", "publication"], name="authorship_researcher_paper"
            ),
        ),
    ]
