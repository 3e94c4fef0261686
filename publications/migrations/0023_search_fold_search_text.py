"""The stored search text is now folded (no case, no accents: publications/search.py). No
column changes, so SQLite keeps its table, its FTS5 triggers (which follow this update) and its
list-order index."""

from django.db import migrations

from base.text import fold


def fold_search_texts(apps, schema_editor):
    Publication = apps.get_model("publications", "Publication")
    changed = []
    for publication in Publication.objects.only("search_text").iterator(chunk_size=2000):
        if (folded := fold(publication.search_text)) != publication.search_text:
            publication.search_text = folded
            changed.append(publication)
    Publication.objects.bulk_update(changed, ["search_text"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [("publications", "0022_markdown_rendered_html")]

    operations = [migrations.RunPython(fold_search_texts, migrations.RunPython.noop)]
