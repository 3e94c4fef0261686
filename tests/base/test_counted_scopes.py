"""Counts follow what they count (base/caches.py's `facets` and `facets-of:<pk>`): an editor
who corrects a paper's title leaves every list's counts, facets and year chart, a profile's
papers per year, its co-authors and the co-author network kept, and the next page shows the
new title at once; a write of a field a count is made from (the year, the draft state, the
author rows), by a save or by a bulk update, moves them.

These tests commit for real (transaction=True): the stamp moves when a transaction commits.
Counts that moved are counted before answering here (tests/conftest.py: no lag), so a query
that counts says they moved.
"""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from base import site_cache
from base.models import Lab
from publications.models import Publication, PublicationLink
from tests.base.test_cache_scopes import save_in_admin
from tests.factories import make_person, make_publication

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def hang():
    Lab.objects.current()  # made by the first page otherwise: a write between the requests
    hang = make_person(name="Hang Zhu", slug="hang-zhu")
    make_publication(title="Klotski", year=2023, authors=[hang])
    return hang


@pytest.fixture
def ring(hang):
    return make_publication(title="Ring", year=2024, authors=[hang])


def counting(queries: CaptureQueriesContext) -> list[str]:
    """The aggregates run: a list's counts and facets, a profile's papers per year, its
    co-authors (each a COUNT)."""
    return [query["sql"] for query in queries.captured_queries if "COUNT(" in query["sql"]]


def get_counting(client, url: str):
    """The page at `url`, and whether answering it counted anything."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    return response, bool(counting(queries))


def counted_after_a_year_edit(client, paper: Publication, year: int, url: str) -> str:
    """The page at `url` after `paper`'s year is saved: counted anew before answering."""
    paper.refresh_from_db()
    paper.year = year
    with transaction.atomic():
        paper.save()
    response, counted = get_counting(client, url)
    assert counted
    return response.text


def scopes_of_last_change() -> frozenset[str]:
    stamp = site_cache.current_stamp()
    change = site_cache.changes_between(stamp.rpartition(".")[0] + ".0", stamp)
    assert change, "the change's record is kept"
    return change[-1].scopes


def test_a_title_edit_leaves_the_lists_counts_kept_and_shows_the_new_title(client, ring):
    client.get("/publications/")

    save_in_admin(ring, title="Ring Revisited")

    response, counted = get_counting(client, "/publications/")
    assert ">Ring Revisited</a>" in response.text
    assert "<strong>2</strong> publications" in response.text
    # The counts did not move: the page is kept and validated.
    assert response[site_cache.CACHE_HEADER] == "miss"
    assert not counted


def test_a_year_edit_moves_the_lists_counts_where_a_title_edit_did_not(client, ring):
    assert 'aria-label="2024: 1 publication"' in client.get("/publications/").text
    save_in_admin(ring, title="Ring Revisited")
    assert not get_counting(client, "/publications/")[1]

    page = counted_after_a_year_edit(client, ring, 2022, "/publications/")
    assert 'aria-label="2022: 1 publication"' in page
    assert 'aria-label="2024: 1 publication"' not in page


def test_a_bulk_update_of_the_year_moves_the_counts_and_of_the_title_does_not(client, ring):
    client.get("/publications/")

    with transaction.atomic():
        Publication.objects.filter(pk=ring.pk).update(title="Ring Revisited")
    assert "facets" not in scopes_of_last_change()
    response = client.get("/publications/")
    assert ">Ring Revisited</a>" in response.text
    assert response[site_cache.CACHE_HEADER] == "miss"

    with transaction.atomic():
        Publication.objects.filter(pk=ring.pk).update(year=2021)
    assert {"facets", f"facets-of:{ring.authorships.get().researcher_id}"} <= (
        scopes_of_last_change()
    )
    assert 'aria-label="2021: 1 publication"' in client.get("/publications/").text


def test_a_save_of_an_object_read_before_a_bulk_year_update_moves_the_counts(client, ring):
    """The save compares the counted fields with those stored, not with those it read: this
    object still says 2024, the row 2021, and the save writes 2024 back."""
    stale = Publication.objects.get(pk=ring.pk)
    Publication.objects.filter(pk=ring.pk).update(year=2021)
    client.get("/publications/")

    stale.title = "Ring Revisited"
    with transaction.atomic():
        stale.save()

    assert "facets" in scopes_of_last_change()


def test_a_draft_made_public_adding_an_author_and_a_link_move_what_they_should(ring, hang):
    ring.is_published = False
    with transaction.atomic():
        ring.save()
    assert "facets" in scopes_of_last_change()

    bo = make_person(name="Bo Zhao", slug="bo-zhao")
    with transaction.atomic():
        ring.authorships.create(name="Bo Zhao", researcher=bo, position=2)
    assert {"facets", f"facets-of:{bo.pk}"} <= scopes_of_last_change()

    with transaction.atomic():
        PublicationLink.objects.create(publication=ring, url="https://example.org/ring.pdf")
    assert "facets" not in scopes_of_last_change()
    assert f"paper:{ring.pk}" in scopes_of_last_change()


def test_a_title_edit_counts_a_search_again_and_the_whole_list_not(client, ring):
    """A search's matches are made from the titles: its counts follow every paper's words."""
    client.get("/publications/")
    assert "<strong>1</strong> publication" in client.get("/publications/?q=ring").text

    save_in_admin(ring, title="Sirius")

    assert not get_counting(client, "/publications/")[1]
    page, counted = get_counting(client, "/publications/?q=ring")
    page = page.text
    assert counted
    assert "<strong>1</strong> publication" not in page


def test_a_title_edit_leaves_the_profiles_counts_and_co_authors_kept(client, ring, settings):
    # The profile drawn anew, as when a visitor comes before the page the save warms is kept
    # (tests/pages/test_warm_after_save.py).
    settings.SITE_CACHE_WARM_PAGES = 0
    client.get("/people/hang-zhu/")

    save_in_admin(ring, title="Ring Revisited")

    response, counted = get_counting(client, "/people/hang-zhu/")
    assert ">Ring Revisited</a>" in response.text
    assert response[site_cache.CACHE_HEADER] == "miss"
    assert not counted

    page = counted_after_a_year_edit(client, ring, 2020, "/people/hang-zhu/")
    assert 'aria-label="2020: 1 publication"' in page


def test_after_a_title_edit_the_list_runs_fewer_queries_than_after_a_year_edit(
    client, ring, django_assert_max_num_queries
):
    """The list's first answer after a title edit reads the page's rows and the edited entry:
    not the count, the facets, the award count and the year histogram (a query each, over
    every paper), which a year edit makes again."""
    client.get("/publications/")
    with transaction.atomic():
        Publication.objects.filter(pk=ring.pk).update(year=2025)
    with CaptureQueriesContext(connection) as after_year_edit:
        client.get("/publications/")

    with transaction.atomic():
        Publication.objects.filter(pk=ring.pk).update(title="Ring Revisited")

    with django_assert_max_num_queries(len(after_year_edit) - 5):
        response = client.get("/publications/")
    assert ">Ring Revisited</a>" in response.text


def rows_read(client, url: str):
    """The page at `url`, and whether answering it read a list's page of rows (50 a page)."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    return response, any("LIMIT 50" in query["sql"] for query in queries.captured_queries)


def test_an_abstract_edit_leaves_the_lists_rows_kept_and_a_title_edit_reads_them_again(
    client, ring
):
    client.get("/publications/?year=2024")

    save_in_admin(ring, abstract="A ring of learned indexes.")
    response, read = rows_read(client, "/publications/?year=2024")
    assert "A ring of learned indexes." in response.text
    assert not read

    with transaction.atomic():
        Publication.objects.filter(pk=ring.pk).update(title="Aardvark Ring")
    response, read = rows_read(client, "/publications/?year=2024")
    assert ">Aardvark Ring</a>" in response.text
    assert read


def test_a_chinese_title_given_or_changed_shows_on_the_chinese_list_at_once(client, ring):
    client.get("/zh-hans/publications/?year=2024")

    save_in_admin(ring, title_zh_hans="环")
    response = client.get("/zh-hans/publications/?year=2024")
    assert ">环</a>" in response.text

    with transaction.atomic():
        Publication.objects.filter(pk=ring.pk).update(title_zh_hans="新环")
    response = client.get("/zh-hans/publications/?year=2024")
    assert ">新环</a>" in response.text


def test_an_author_row_moved_to_another_paper_by_a_save_moves_both_papers_and_the_counts(ring):
    klotski = Publication.objects.get(title="Klotski")
    row = ring.authorships.get()
    row.publication = klotski
    row.position = 2
    with transaction.atomic():
        row.save()
    scopes = scopes_of_last_change()
    assert {f"paper:{ring.pk}", f"paper:{klotski.pk}", "facets"} <= scopes
