"""The Editors and Members groups, with the model permissions each role needs.

What a member may do beyond these permissions (only their own profile and publications) is
enforced in the admin: base/scoped_admin.py.
"""

from django.contrib.auth.management import create_permissions
from django.db import migrations

EDITOR_MODELS = {
    "directory": ["lab"],
    "people": ["rolegroup", "person", "education", "experience", "teaching", "service", "award", "personlink"],
    "publications": ["venue", "publication", "authorship", "publicationaward", "publicationlink"],
    "news": ["newsitem"],
}
EDITOR_EXTRA = [("auth", "view_user")]  # to choose the login linked to a person
MEMBER_PERMISSIONS = {
    "people": {
        "person": ["view", "change"],
        **{model: ["view", "add", "change", "delete"] for model in ["education", "experience", "teaching", "service", "award", "personlink"]},
    },
    "publications": {
        "venue": ["view"],
        "publication": ["view", "add", "change"],
        **{model: ["view", "add", "change", "delete"] for model in ["authorship", "publicationaward", "publicationlink"]},
    },
}


def create_roles(apps, schema_editor):
    # Permissions are normally made after all migrations; the groups need them now.
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")

    editors, _ = Group.objects.get_or_create(name="Editors")
    editor_permissions = Permission.objects.filter(
        content_type__app_label__in=EDITOR_MODELS,
        content_type__model__in=[model for models in EDITOR_MODELS.values() for model in models],
    )
    editors.permissions.add(*editor_permissions)
    for app_label, codename in EDITOR_EXTRA:
        editors.permissions.add(Permission.objects.get(content_type__app_label=app_label, codename=codename))

    members, _ = Group.objects.get_or_create(name="Members")
    for app_label, models in MEMBER_PERMISSIONS.items():
        for model, actions in models.items():
            codenames = [f"{action}_{model}" for action in actions]
            members.permissions.add(
                *Permission.objects.filter(content_type__app_label=app_label, codename__in=codenames)
            )


def remove_roles(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name__in=["Editors", "Members"]).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("directory", "0002_create_lab"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("people", "0003_person_user"),
        ("publications", "0002_title_search_index"),
        ("news", "0001_initial"),
    ]

    operations = [migrations.RunPython(create_roles, remove_roles)]
