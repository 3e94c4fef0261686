"""Text stored before the rules of issue 22 is mended, each change printed
(base/mending.py): bidirectional controls, noncharacters and surrogates removed, one-line
text in NFC, identifiers (ORCID iD, DOI) in their bare form or cleared, direction marks taken
out of names."""

from django.db import migrations


def mend(apps, schema_editor):
    from base.mending import mend_rows

    mend_rows(apps, "directory", ['Lab'])


class Migration(migrations.Migration):
    dependencies = [("directory", "0009_lab_settings_and_member_roles")]
    operations = [migrations.RunPython(mend, migrations.RunPython.noop)]
