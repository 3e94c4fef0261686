"""A GIN index for PostgreSQL's full-text search of titles; other databases need none."""

from django.contrib.postgres.indexes import GinIndex
from django.db import migrations

from publications.models import TITLE_SEARCH_VECTOR

INDEX = GinIndex(TITLE_SEARCH_VECTOR, name="publication_title_search")


def create_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.add_index(apps.get_model("publications", "Publication"), INDEX)


def drop_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.remove_index(apps.get_model("publications", "Publication"), INDEX)


class Migration(migrations.Migration):
    dependencies = [("publications", "0001_initial")]

    operations = [migrations.RunPython(create_index, drop_index)]
