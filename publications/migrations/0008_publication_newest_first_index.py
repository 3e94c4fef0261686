from django.db import migrations

# The order every list shows (Publication.Meta.ordering: year newest first, undated last, then
# title), as an index, so a page of 50 reads 50 index entries instead of sorting the table.
# Written per database: SQLite has no NULLS LAST in an index and puts NULL last when
# descending anyway; PostgreSQL puts NULL first unless told.
INDEX = "publication_newest_first"
COLUMNS = {
    "sqlite": '"year" DESC, "title"',
    "postgresql": '"year" DESC NULLS LAST, "title"',
}


def create(apps, schema_editor):
    columns = COLUMNS.get(schema_editor.connection.vendor)
    if columns:
        schema_editor.execute(
            f'CREATE INDEX "{INDEX}" ON "publications_publication" ({columns})'
        )


def drop(apps, schema_editor):
    if schema_editor.connection.vendor in COLUMNS:
        schema_editor.execute(f'DROP INDEX "{INDEX}"')


class Migration(migrations.Migration):
    dependencies = [
        ("publications", "0007_publication_citation_key"),
    ]

    operations = [migrations.RunPython(create, drop, elidable=False)]
