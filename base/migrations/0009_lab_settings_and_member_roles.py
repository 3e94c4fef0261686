"""The lab's row is "lab settings"; the members' permission group is "Member logins", so it is
not mistaken for the directory's "Members" heading; members may propose venues."""

from django.db import migrations

OLD_NAME, NEW_NAME = "Members", "Member logins"


def rename_and_grant(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    Group.objects.filter(name=OLD_NAME).update(name=NEW_NAME)
    members = Group.objects.filter(name=NEW_NAME).first()
    if members is not None:
        members.permissions.add(
            *Permission.objects.filter(content_type__app_label="publications", codename="add_venue")
        )


def restore(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    members = Group.objects.filter(name=NEW_NAME).first()
    if members is not None:
        members.permissions.remove(
            *Permission.objects.filter(content_type__app_label="publications", codename="add_venue")
        )
    Group.objects.filter(name=NEW_NAME).update(name=OLD_NAME)


class Migration(migrations.Migration):
    dependencies = [
        ("directory", "0008_history_snapshot"),
        ("publications", "0016_venue_aliases"),
        # The department's roles grant the group under its old name first.
        ("people", "0011_department_roles"),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="historicallab",
            options={
                "get_latest_by": ("history_date", "history_id"),
                "ordering": ("-history_date", "-history_id"),
                "verbose_name": "historical lab settings",
                "verbose_name_plural": "historical lab settings",
            },
        ),
        migrations.AlterModelOptions(
            name="lab",
            options={
                "permissions": [("edit_all", "Edit every profile, publication and news item")],
                "verbose_name": "lab settings",
                "verbose_name_plural": "lab settings",
            },
        ),
        migrations.RunPython(rename_and_grant, restore),
    ]
