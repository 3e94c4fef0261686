"""The staff roles (base/roles.py) on the department's models.

Editors manage groups, memberships, areas, external people, advising and close collaborators,
alumni records, and merges and splits. Members may view research areas and external people
(to choose them for their own profile and papers); what they change is their own profile's
areas, through the person's change page.
"""

from django.contrib.auth.management import create_permissions
from django.db import migrations

EDITOR_MODELS = [
    "researchgroup",
    "membership",
    "researcharea",
    "externalperson",
    "advising",
    "collaboration",
    "departure",
    "identitychange",
]
MEMBER_VIEWS = ["researcharea", "externalperson"]


def grant(apps, schema_editor):
    # Permissions are normally made after all migrations; the groups need them now.
    app_config = apps.get_app_config("people")
    app_config.models_module = True
    create_permissions(app_config, apps=apps, verbosity=0)
    app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    people = Permission.objects.filter(content_type__app_label="people")
    editors, _ = Group.objects.get_or_create(name="Editors")
    editors.permissions.add(*people.filter(content_type__model__in=EDITOR_MODELS))
    members, _ = Group.objects.get_or_create(name="Members")
    members.permissions.add(*people.filter(codename__in=[f"view_{model}" for model in MEMBER_VIEWS]))


def revoke(apps, schema_editor):
    Permission = apps.get_model("auth", "Permission")
    for group in apps.get_model("auth", "Group").objects.filter(name__in=["Editors", "Members"]):
        group.permissions.remove(
            *Permission.objects.filter(
                content_type__app_label="people", content_type__model__in=EDITOR_MODELS
            )
        )


class Migration(migrations.Migration):
    dependencies = [
        ("people", "0010_department"),
        ("directory", "0007_mend_rows_stored_before_validation"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(grant, revoke)]
