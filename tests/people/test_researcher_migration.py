"""people 0020 gives every member a Researcher row and makes the profile its child: run on a
generated department in the schema before it, every row of people, publications and news and
every link (which human each author, advisor, collaborator and proposal stands for) is the
same after it. benchmarks/researcher_migration.py does the same at 20,000 papers."""

import pytest
from django.db import connection

from benchmarks.researcher_migration import run_migration


@pytest.mark.django_db(transaction=True)
def test_the_researcher_migration_keeps_every_row_and_every_link():
    messages: list[str] = []
    found = run_migration(connection, members=12, outsiders=5, papers=30, log=messages.append)
    assert found == []
    assert "people.person 12" in messages[1]
