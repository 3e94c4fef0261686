"""Rows stored before validation existed are mended, each change printed (base/mending.py)."""

from django.db import migrations


def mend(apps, schema_editor):
    from base.mending import mend_rows

    mend_rows(apps, "news", ["NewsItem"])


class Migration(migrations.Migration):
    dependencies = [("news", "0004_newsitem_link")]
    operations = [migrations.RunPython(mend, migrations.RunPython.noop)]
