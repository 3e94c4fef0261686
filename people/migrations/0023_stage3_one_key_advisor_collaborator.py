"""Researcher identity, stage 3 (issue 25): an advising names its advisor, and a close
collaboration its collaborator, by one key to the researcher instead of a member key and an
outsider key. Both keys hold researcher ids since 0021 (a member's profile has its
researcher's id), so the one key is the member key, pointed at the researchers, filled from
the outsider key where empty; the rows' history likewise. The merge and split log names the
new key for the rows it moved, so undo still finds them."""

import django.db.models.deletion
from django.db import migrations, models

# (model, the one key, the outsider key it absorbs, help text, reverse name)
KEYS = (
    (
        "advising",
        "advisor",
        "external_advisor",
        "The advisor: a member, or an external person.",
        "students",
    ),
    (
        "collaboration",
        "collaborator",
        "external_collaborator",
        "The collaborator: a member, or an external person.",
        "collaborator_of",
    ),
)



def check_keys_now(schema_editor):
    """PostgreSQL checks the updated keys at commit (deferred constraints); the ALTER TABLEs
    after the update refuse a table with checks pending, so they are made now."""
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")


def one_key(apps, schema_editor):
    for model, key, outsider, _, _ in KEYS:
        for name in (model, f"historical{model}"):
            rows = apps.get_model("people", name).objects.filter(**{f"{key}__isnull": True})
            rows.update(**{f"{key}_id": models.F(f"{outsider}_id")})
    _rename_in_log(apps, {outsider: key for _, key, outsider, _, _ in KEYS})
    check_keys_now(schema_editor)


def two_keys(apps, schema_editor):
    """Back: a researcher without a profile goes to the outsider key."""
    members = apps.get_model("people", "Person").objects.values("pk")
    for model, key, outsider, _, _ in KEYS:
        for name in (model, f"historical{model}"):
            rows = apps.get_model("people", name).objects.exclude(**{f"{key}_id__in": members})
            rows.update(**{f"{outsider}_id": models.F(f"{key}_id"), f"{key}_id": None})
    _rename_in_log(apps, {key: outsider for _, key, outsider, _, _ in KEYS})
    check_keys_now(schema_editor)


def _rename_in_log(apps, renamed):
    for change in apps.get_model("people", "IdentityChange").objects.all():
        moved = change.moved
        for label in ("people.advising", "people.collaboration"):
            if label in moved and moved[label].get("field") in renamed:
                moved[label]["field"] = renamed[moved[label]["field"]]
        change.save(update_fields=["moved"])


def key(help_text, related_name, *, null):
    return models.ForeignKey(
        blank=null,
        null=null,
        help_text=help_text,
        on_delete=django.db.models.deletion.CASCADE,
        related_name=related_name,
        to="people.researcher",
    )


def history_key(help_text):
    return models.ForeignKey(
        blank=True,
        db_constraint=False,
        help_text=help_text,
        null=True,
        on_delete=django.db.models.deletion.DO_NOTHING,
        related_name="+",
        to="people.researcher",
    )


class Migration(migrations.Migration):
    dependencies = [
        ("people", "0022_stage2_external_person_proxy"),
    ]

    operations = [
        # First: the one key holds both kinds of human while the outsider key still does.
        migrations.RemoveConstraint(model_name="advising", name="advising_one_advisor"),
        migrations.RemoveConstraint(
            model_name="collaboration", name="collaboration_one_collaborator"
        ),
        *(
            migrations.AlterField(
                model_name=model, name=name, field=key(help_text, related_name, null=True)
            )
            for model, name, _, help_text, related_name in KEYS
        ),
        *(
            migrations.AlterField(
                model_name=f"historical{model}", name=name, field=history_key(help_text)
            )
            for model, name, _, help_text, _ in KEYS
        ),
        migrations.RunPython(one_key, two_keys, elidable=False),
        *(
            migrations.RemoveField(model_name=name, name=field_name)
            for model, _, field_name, _, _ in KEYS
            for name in (model, f"historical{model}")
        ),
        *(
            migrations.AlterField(
                model_name=model, name=name, field=key(help_text, related_name, null=False)
            )
            for model, name, _, help_text, related_name in KEYS
        ),
    ]
