"""Text stored before the rules of issue 22 is mended, each change printed
(base/mending.py): bidirectional controls, noncharacters and surrogates removed, one-line
text in NFC, identifiers (ORCID iD, DOI) in their bare form or cleared, direction marks taken
out of names."""

import base.identifiers
import base.validation
from django.db import migrations, models


def mend(apps, schema_editor):
    from base.mending import mend_rows

    mend_rows(apps, "publications", ['Venue', 'Publication', 'Authorship', 'PublicationAward', 'PublicationLink'])


class Migration(migrations.Migration):

    dependencies = [
        ('publications', '0020_restore_bibtex_import_heartbeat'),
    ]

    operations = [
        migrations.AlterField(
            model_name='authorship',
            name='name',
            field=models.CharField(help_text='The name as printed in the paper.', max_length=200, validators=[base.validation.validate_visible_name]),
        ),
        migrations.AlterField(
            model_name='historicalauthorship',
            name='name',
            field=models.CharField(help_text='The name as printed in the paper.', max_length=200, validators=[base.validation.validate_visible_name]),
        ),
        # The new field class stores the same column (a varchar of the same length): only
        # Django's state changes. Altering the column would make SQLite rebuild the table, which
        # drops what migrations added by hand (the search index's triggers, the list-order index).
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='historicalpublication',
                    name='doi',
                    field=base.identifiers.DoiField(blank=True, help_text='e.g. "10.1145/3544216.3544265", or its address on doi.org.', max_length=200, verbose_name='DOI'),
                ),
                migrations.AlterField(
                    model_name='publication',
                    name='doi',
                    field=base.identifiers.DoiField(blank=True, help_text='e.g. "10.1145/3544216.3544265", or its address on doi.org.', max_length=200, verbose_name='DOI'),
                ),
            ],
        ),
        migrations.RunPython(mend, migrations.RunPython.noop),
    ]
