from django.db import migrations


def create_lab(apps, schema_editor):
    apps.get_model("directory", "Lab").objects.get_or_create(pk=1)


class Migration(migrations.Migration):
    dependencies = [("directory", "0001_lab")]

    operations = [migrations.RunPython(create_lab, migrations.RunPython.noop)]
