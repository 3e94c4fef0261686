"""A paper's page after the paper's own edit (a title corrected) reads the paper again, not
what the page shows of other rows (its members' other papers, news, datasets, talks, grants
and projects: base/caches.py "publication-surroundings", kept apart from the paper's own
changes); a talk linked to the paper afterwards still shows at once.

These tests commit for real (transaction=True): the change stamp moves when a transaction
commits, as on a live site."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from base.models import Lab
from tests.factories import make_event, make_person, make_publication

pytestmark = pytest.mark.django_db(transaction=True)

OTHERS = ("news_newsitem", "outputs_output", "events_event", "projects_grant", "projects_project")
OTHERS_QUOTED = tuple(f'"{table}"' for table in OTHERS)


def test_a_papers_own_title_edit_reads_none_of_what_its_page_shows_of_others(client):
    Lab.objects.current()  # made by the first page otherwise: a write between the requests
    hang = make_person(name="Hang Zhu", slug="hang-zhu")
    ring = make_publication(title="Ring", slug="ring", year=2024, authors=[hang])
    make_publication(title="Klotski", slug="klotski", year=2023, authors=[hang])
    assert ">Klotski</a>" in client.get(ring.get_absolute_url()).text

    ring.title = "Ring Revisited"
    ring.save()
    with CaptureQueriesContext(connection) as queries:
        page = client.get(ring.get_absolute_url()).text

    assert "Ring Revisited" in page and ">Klotski</a>" in page
    # The table each query reads rows of (the lab's row asks in a subquery whether any output
    # is published: base.html's).
    read = [q["sql"] for q in queries if q["sql"].split(" FROM ")[1].startswith(OTHERS_QUOTED)]
    assert read == []

    talk = make_event(starts_in=-datetime.timedelta(days=3), title="Ring at NSDI")
    talk.publications.add(ring)
    assert "Ring at NSDI" in client.get(ring.get_absolute_url()).text


def test_a_papers_own_edit_reads_its_row_authors_awards_and_links_again_and_nothing_else(client):
    """Four queries: the paper's row with its venue, then its authors, awards and links. Not
    the lab's row, kept in the process through a paper's edit; the lab's own edit shows."""
    lab = Lab.objects.current()
    hang = make_person(name="Hang Zhu", slug="hang-zhu")
    ring = make_publication(title="Ring", slug="ring", year=2024, authors=[hang])
    client.get(ring.get_absolute_url())

    ring.title = "Ring Revisited"
    ring.save()
    with CaptureQueriesContext(connection) as queries:
        assert "Ring Revisited" in client.get(ring.get_absolute_url()).text

    tables = [q["sql"].split(" FROM ")[1].split()[0].strip('"') for q in queries]
    assert tables == [
        "publications_publication",
        "publications_authorship",
        "publications_publicationaward",
        "publications_publicationlink",
    ]
    lab.name = "Systems Lab"
    lab.save()
    assert "Systems Lab" in client.get(ring.get_absolute_url()).text
