from django.db import migrations

from publications.models import create_list_order_index, drop_list_order_index


class Migration(migrations.Migration):
    dependencies = [
        ("publications", "0010_publication_citation_key"),
    ]

    # The list's order as an index (publications/models.py, LIST_ORDER_INDEX).
    operations = [migrations.RunPython(create_list_order_index, drop_list_order_index)]
