"""An editor opening a change form takes no transaction: on SQLite (IMMEDIATE transactions) the
admin's transaction took the one write lock for the whole page's rendering, and under
`make load` ten editors opening forms queued saves and sign-ins past their busy timeout
("database is locked", a 500). In the tests' own transaction a transaction is a SAVEPOINT."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import make_publication

pytestmark = pytest.mark.django_db


def savepoints_while_getting(client, url: str) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return [query["sql"] for query in queries if query["sql"].startswith("SAVEPOINT")]


def test_showing_a_paper_or_a_person_to_edit_takes_no_transaction(client, member_lab):
    paper = make_publication(authors=[member_lab["ada"], "Charles Babbage"])
    client.force_login(member_lab["editor"])
    assert (
        savepoints_while_getting(client, f"/admin/publications/publication/{paper.pk}/change/")
        == []
    )
    assert (
        savepoints_while_getting(client, f"/admin/people/person/{member_lab['ada'].pk}/change/")
        == []
    )
    assert savepoints_while_getting(client, "/admin/publications/publication/add/") == []
