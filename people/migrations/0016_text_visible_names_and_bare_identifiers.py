"""Text stored before the rules of issue 22 is mended, each change printed
(base/mending.py): bidirectional controls, noncharacters and surrogates removed, one-line
text in NFC, identifiers (ORCID iD, DOI) in their bare form or cleared, direction marks taken
out of names."""

import base.identifiers
import base.validation
from django.db import migrations, models


def mend(apps, schema_editor):
    from base.mending import mend_rows

    mend_rows(apps, "people", ['RoleGroup', 'ResearchArea', 'Person', 'Education', 'Experience', 'Teaching', 'Service', 'Award', 'PersonLink', 'ResearchGroup', 'Membership', 'ExternalPerson', 'Advising', 'Departure', 'IdentityChange'])


class Migration(migrations.Migration):

    dependencies = [
        ('people', '0015_alias_limits'),
    ]

    operations = [
        migrations.AlterField(
            model_name='externalperson',
            name='name',
            field=models.CharField(help_text='The name as author lists print it.', max_length=200, validators=[base.validation.validate_visible_name]),
        ),
        migrations.AlterField(
            model_name='historicalexternalperson',
            name='name',
            field=models.CharField(help_text='The name as author lists print it.', max_length=200, validators=[base.validation.validate_visible_name]),
        ),
        migrations.AlterField(
            model_name='historicalperson',
            name='name',
            field=models.CharField(help_text='The name as the person writes it.', max_length=200, validators=[base.validation.validate_initials, base.validation.validate_visible_name]),
        ),
        migrations.AlterField(
            model_name='person',
            name='name',
            field=models.CharField(help_text='The name as the person writes it.', max_length=200, validators=[base.validation.validate_initials, base.validation.validate_visible_name]),
        ),
        # The new field class stores the same column (a varchar of the same length): only
        # Django's state changes. Altering the column would make SQLite rebuild the table, which
        # drops what migrations added by hand (the search index's triggers, the list-order index).
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='externalperson',
                    name='orcid',
                    field=base.identifiers.OrcidField(blank=True, help_text='e.g. "0000-0002-1825-0097", or its address on orcid.org.', max_length=19, verbose_name='ORCID'),
                ),
                migrations.AlterField(
                    model_name='historicalexternalperson',
                    name='orcid',
                    field=base.identifiers.OrcidField(blank=True, help_text='e.g. "0000-0002-1825-0097", or its address on orcid.org.', max_length=19, verbose_name='ORCID'),
                ),
            ],
        ),
        migrations.RunPython(mend, migrations.RunPython.noop),
    ]
