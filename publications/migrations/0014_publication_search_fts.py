from django.db import migrations

from publications.search import create_full_text_index, drop_full_text_index


class Migration(migrations.Migration):
    """SQLite only: an FTS5 index of the search text, kept by triggers (publications/search.py).
    Nothing on PostgreSQL, which has the trigram index of 0011."""

    dependencies = [
        ("publications", "0013_publication_search_text"),
    ]

    operations = [
        migrations.RunPython(create_full_text_index, drop_full_text_index),
    ]
