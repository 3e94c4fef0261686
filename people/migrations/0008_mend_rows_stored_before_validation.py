"""Rows stored before validation existed are mended, each change printed (base/mending.py)."""

from django.db import migrations


def mend(apps, schema_editor):
    from base.mending import mend_rows

    mend_rows(apps, "people", ["RoleGroup", "Person", "Education", "Experience", "Teaching", "Service", "Award", "PersonLink"])


class Migration(migrations.Migration):
    dependencies = [("people", "0007_name_initials")]
    operations = [migrations.RunPython(mend, migrations.RunPython.noop)]
