"""An edit moves only the caches that follow what it touched (base/caches.py): saving one
paper renders that paper's entry again, not every kept entry, and leaves the profiles of people
not on it as they were kept; counts over many papers are shown as they were for one request at
most, within settings.SITE_CACHE_LAG_SECONDS, and counted anew after that answer is sent.

These tests commit for real (transaction=True): the stamp moves when a transaction commits.
"""

from unittest import mock

import pytest
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from base import site_cache
from base.models import Lab
from publications.models import Publication
from tests.admin_forms import publication_form
from tests.cases import make_editor
from tests.factories import make_person, make_publication

pytestmark = pytest.mark.django_db(transaction=True)

ENTRY = "includes/publication_entry.html"


@pytest.fixture
def lab():
    """The lab's row, as a migrated site has it: an earlier transactional test's flush removed
    it, and the first page would make it, a write that moves the stamp between the requests
    these tests count."""
    return Lab.objects.current()


def save_in_admin(paper: Publication, **fields) -> None:
    staff = Client()
    staff.force_login(make_editor())
    change = reverse("admin:publications_publication_change", args=[paper.pk])
    assert staff.post(change, publication_form(paper, **fields)).status_code == 302


def entries_drawn(response) -> int:
    return sum(template.name == ENTRY for template in response.templates)


def test_saving_one_paper_draws_only_its_own_entry_again(client, settings, lab):
    settings.SITE_CACHE = False  # the whole page is drawn each time: only entries are kept
    hang = make_person(name="Hang Zhu", slug="hang-zhu")
    ring = make_publication(title="Ring", year=2024, authors=[hang])
    make_publication(title="Klotski", year=2023, authors=[hang])
    assert entries_drawn(client.get("/publications/")) == 2
    assert entries_drawn(client.get("/publications/")) == 0

    save_in_admin(ring, title="Ring Revisited")

    response = client.get("/publications/")
    assert ">Ring Revisited</a>" in response.text and ">Klotski</a>" in response.text
    assert entries_drawn(response) == 1


def test_saving_one_paper_keeps_what_the_profiles_of_people_not_on_it_show(client, settings):
    """The profile's person, co-authors, selection and counts are kept: the page is drawn from
    them with the queries of a profile whose values are all kept."""
    settings.SITE_CACHE = False
    hang = make_person(name="Hang Zhu", slug="hang-zhu")
    bo = make_person(name="Bo Zhao", slug="bo-zhao")
    make_publication(title="Klotski", year=2023, authors=[hang])
    ring = make_publication(title="Ring", year=2024, authors=[bo])
    client.get("/people/hang-zhu/")
    with CaptureQueriesContext(connection) as kept:
        client.get("/people/hang-zhu/")

    save_in_admin(ring, title="Ring Revisited")

    with CaptureQueriesContext(connection) as after:
        response = client.get("/people/hang-zhu/")
    assert ">Klotski</a>" in response.text
    assert len(after) == len(kept)
    # The paper's own page shows the edit at once.
    assert "Ring Revisited" in client.get(ring.get_absolute_url()).text


def test_counts_are_late_for_one_answer_within_the_bound_and_never_beyond(client, settings):
    settings.SITE_CACHE_LAG_SECONDS = 60
    hang = make_person(name="Hang Zhu", slug="hang-zhu")
    make_publication(title="Klotski", year=2023, authors=[hang])
    assert "<strong>1</strong> publication" in client.get("/publications/").text

    make_publication(title="Ring", year=2024, authors=[hang])
    response = client.get("/publications/")
    # The new paper is listed at once; the counts are the previous ones, not counted while
    # the visitor waits, and the page is neither kept nor validated.
    assert ">Ring</a>" in response.text
    assert "<strong>1</strong> publication" in response.text
    assert response[site_cache.CACHE_HEADER] == "lagging"
    assert "ETag" not in response
    # Counted once that answer was sent: the next visitor gets them, kept.
    assert "<strong>2</strong> publications" in client.get("/publications/").text
    assert client.get("/publications/")[site_cache.CACHE_HEADER] == "hit"

    # Beyond the bound, the counts are made before answering.
    make_publication(title="Sirius", year=2025, authors=[hang])
    later = site_cache.time.time() + 61
    with mock.patch.object(site_cache.time, "time", return_value=later):
        response = client.get("/publications/")
    assert "<strong>3</strong> publications" in response.text
    assert response[site_cache.CACHE_HEADER] == "miss"


def test_a_profiles_count_is_late_for_one_answer_its_papers_never(client, settings):
    settings.SITE_CACHE_LAG_SECONDS = 60
    hang = make_person(name="Hang Zhu", slug="hang-zhu")
    make_publication(title="Klotski", year=2023, authors=[hang])
    client.get("/people/hang-zhu/")

    make_publication(title="Ring", year=2024, authors=[hang])
    response = client.get("/people/hang-zhu/")
    assert ">Ring</a>" in response.text
    assert response[site_cache.CACHE_HEADER] == "lagging"
    assert 'aria-label="2024: 1 publication"' in client.get("/people/hang-zhu/").text


def test_a_papers_related_papers_follow_the_others_through_its_own_edit(client):
    """A paper's related papers (its members' other papers) leave the paper out, so they are
    kept through the paper's own edit (`apart_from`); an edit of one of them shows at once."""
    hang = make_person(name="Hang Zhu", slug="hang-zhu")
    ring = make_publication(title="Ring", year=2024, authors=[hang])
    klotski = make_publication(title="Klotski", year=2023, authors=[hang])
    assert ">Klotski</a>" in client.get(ring.get_absolute_url()).text

    ring.title = "Ring Revisited"
    ring.save()
    page = client.get(ring.get_absolute_url()).text
    assert "Ring Revisited" in page and ">Klotski</a>" in page

    klotski.title = "Klotski Revisited"
    klotski.save()
    assert ">Klotski Revisited</a>" in client.get(ring.get_absolute_url()).text


@pytest.mark.django_db(transaction=True)
def test_a_rolled_back_transaction_takes_the_scopes_it_named_with_it(monkeypatch):
    """The scopes a transaction's writes named belong to that transaction: rolled back, they
    are not carried by the next commit's bump (they once stayed on the connection)."""
    bumped: list[set[str]] = []
    monkeypatch.setattr(site_cache, "bump_stamp", lambda scopes=None: bumped.append(set(scopes)))
    with pytest.raises(RuntimeError), transaction.atomic():
        site_cache.note_change(scopes={"paper:1"})
        raise RuntimeError("rolled back")
    with transaction.atomic():
        site_cache.note_change(scopes={"paper:2"})
        site_cache.note_change(scopes={"person:3"})
    site_cache.note_change(scopes={"paper:4"})
    assert bumped == [{"paper:2", "person:3"}, {"paper:4"}]
