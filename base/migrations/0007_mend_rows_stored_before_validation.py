"""Rows stored before validation existed are mended, each change printed (base/mending.py)."""

from django.db import migrations


def mend(apps, schema_editor):
    from base.mending import mend_rows

    mend_rows(apps, "directory", ["Lab"])


class Migration(migrations.Migration):
    dependencies = [("directory", "0006_lab_institution")]
    operations = [migrations.RunPython(mend, migrations.RunPython.noop)]
