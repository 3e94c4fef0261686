"""The editor's role as a permission (base/roles.py), granted by the Editors group, so code
asks `user.has_perm("directory.edit_all")` instead of comparing group names."""

from django.contrib.auth.management import create_permissions
from django.db import migrations


def grant_to_editors(apps, schema_editor):
    # Permissions are normally made after all migrations; the group needs this one now.
    app_config = apps.get_app_config("directory")
    app_config.models_module = True
    create_permissions(app_config, apps=apps, verbosity=0)
    app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    permission = Permission.objects.get(content_type__app_label="directory", codename="edit_all")
    Group.objects.get_or_create(name="Editors")[0].permissions.add(permission)


class Migration(migrations.Migration):
    dependencies = [
        ("directory", "0004_historicallab"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="lab",
            options={
                "permissions": [("edit_all", "Edit every profile, publication and news item")],
                "verbose_name": "lab",
            },
        ),
        migrations.RunPython(grant_to_editors, migrations.RunPython.noop),
    ]
