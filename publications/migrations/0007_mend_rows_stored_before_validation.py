"""Rows stored before validation existed are mended, each change printed (base/mending.py)."""

from django.db import migrations


def mend(apps, schema_editor):
    from base.mending import mend_rows

    mend_rows(apps, "publications", ["Venue", "Publication", "Authorship", "PublicationAward", "PublicationLink"])


class Migration(migrations.Migration):
    dependencies = [("publications", "0006_bibtex_import")]
    operations = [migrations.RunPython(mend, migrations.RunPython.noop)]
