"""The index in the lists' order survives the migrations: SQLite rebuilds a table to add a
column and drops the indexes the model does not declare (publications/models.py)."""

import pytest
from django.db import connection

from publications.models import LIST_ORDER_INDEX

pytestmark = pytest.mark.django_db


def test_the_list_order_index_exists_after_every_migration():
    with connection.cursor() as cursor:
        indexes = connection.introspection.get_constraints(cursor, "publications_publication")
    assert LIST_ORDER_INDEX in indexes
    assert indexes[LIST_ORDER_INDEX]["columns"][:2] == ["year", "title"]
