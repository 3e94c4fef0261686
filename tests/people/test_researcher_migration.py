"""people 0020 gives every member a Researcher row and makes the profile its child; people
0021/0022 with publications 0031/0032 make every external person a researcher without a
profile (stage 2). Run on a generated department in the schema before them, every row of
people, publications and news and every link (which human each author, advisor, collaborator,
proposal and merge-log entry stands for) is the same after them.
benchmarks/researcher_migration.py does the same at 20,000 papers."""

import pytest
from django.db import connection

from benchmarks.researcher_migration import compare_across, generate, run_migration


@pytest.mark.django_db(transaction=True)
def test_the_researcher_migration_keeps_every_row_and_every_link():
    messages: list[str] = []
    found = run_migration(connection, members=12, outsiders=5, papers=30, log=messages.append)
    assert found == []
    assert "people.person 12" in messages[1]
    assert "people.externalperson 5" in messages[1]
    from people.models import ExternalPerson, Researcher

    # The outsiders are researchers now, with no profile, and still named by their author rows.
    assert Researcher.objects.filter(profile__isnull=True).count() == 5
    assert ExternalPerson.objects.filter(authorships__isnull=False).distinct().count() == 5


@pytest.mark.django_db(transaction=True)
def test_an_outsider_with_a_members_address_gets_a_numbered_one_and_keeps_its_rows():
    """Members and outsiders share one set of addresses after stage 2; before it they could
    clash."""

    def fill(old):
        generate(old, members=4, outsiders=1, papers=3)
        outsiders = old.get_model("people", "ExternalPerson").objects
        outsiders.update(slug="member-00001")

    found = compare_across(connection, fill=fill, log=lambda line: None)
    from people.models import ExternalPerson

    outsider = ExternalPerson.objects.get()
    assert outsider.slug == "member-00001-2"
    assert outsider.authorships.count() == 3
    # Only the lists that name the outsider by its address differ: no row is lost.
    named_by_address = {"people.externalperson", "authors", "advisors", "collaborators"}
    assert {line.split(":")[0] for line in found} <= named_by_address | {"identity changes"}
