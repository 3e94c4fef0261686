"""Public pages cached whole and validated by the site's change stamp (base/site_cache.py).

These tests commit for real (transaction=True): the stamp moves when a transaction commits, as
on a live site, so an edit is seen by the next request only if the commit hook does its job.
"""

import pytest
from django.core.cache import cache
from django.db import connection, transaction
from django.http import HttpResponse
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from base import site_cache
from publications.models import Publication
from tests.admin_forms import post_person, publication_form
from tests.factories import make_cached_site, make_person, make_publication

pytestmark = pytest.mark.django_db(transaction=True)

PUBLIC_PAGES = [
    "/",
    "/people/",
    "/people/hang-zhu/",
    "/publications/",
    "/publications/?year=2023&venue=NSDI",
    "/publications/klotski/",
    "/publications/klotski.bib",
    "/publications/export.bib",
    "/publications/export.csv?year=2023",
    "/publications/feed/",
    "/news/",
    "/news/feed/",
    "/sitemap.xml",
]


@pytest.fixture
def site():
    return make_cached_site()


@pytest.mark.parametrize("url", PUBLIC_PAGES)
def test_every_public_page_is_validated_and_cached(client, site, url, django_assert_num_queries):
    first = client.get(url)
    assert first.status_code == 200
    assert first["ETag"].startswith('W/"')
    assert "public" in first["Cache-Control"]
    assert first[site_cache.CACHE_HEADER] == "miss"

    with django_assert_num_queries(0):
        again = client.get(url)
    assert again[site_cache.CACHE_HEADER] == "hit"
    assert again.content == first.content
    assert again["Content-Type"] == first["Content-Type"]

    with django_assert_num_queries(0):
        revalidated = client.get(url, headers={"If-None-Match": first["ETag"]})
    assert revalidated.status_code == 304
    assert revalidated.content == b""
    assert revalidated["ETag"] == first["ETag"]


def test_an_admin_edit_shows_on_the_next_request_and_changes_the_etag(client, site, editor):
    publication = Publication.objects.get(slug="klotski")
    before = client.get("/publications/klotski/")
    client.get("/publications/")
    assert client.get("/publications/")[site_cache.CACHE_HEADER] == "hit"

    staff = Client()
    staff.force_login(editor)
    change = reverse("admin:publications_publication_change", args=[publication.pk])
    response = staff.post(change, publication_form(publication, title="Klotski Revisited"))
    assert response.status_code == 302

    after = client.get("/publications/klotski/", headers={"If-None-Match": before["ETag"]})
    assert after.status_code == 200
    assert "Klotski Revisited" in after.content.decode()
    assert after["ETag"] != before["ETag"]
    listing = client.get("/publications/")
    assert listing[site_cache.CACHE_HEADER] == "miss"
    assert "Klotski Revisited" in listing.content.decode()


def test_a_members_name_edited_in_the_admin_reaches_the_directory_and_profile(client, site, editor):
    for url in ["/people/", "/people/hang-zhu/"]:
        assert "Hang Zhu" in client.get(url).content.decode()
    staff = Client()
    staff.force_login(editor)
    assert post_person(staff, site, name="Hang Zhu-Li").status_code == 302
    for url in ["/people/", "/people/hang-zhu/"]:
        assert "Hang Zhu-Li" in client.get(url).content.decode(), url


def test_a_deleted_paper_leaves_the_cached_list(client, site):
    assert "Klotski" in client.get("/publications/").content.decode()
    Publication.objects.get(slug="klotski").delete()
    assert "Klotski" not in client.get("/publications/").content.decode()
    assert client.get("/publications/klotski/").status_code == 404


def test_a_rolled_back_save_keeps_the_stamp(client, site):
    stamp = site_cache.current_stamp()
    with transaction.atomic():
        Publication.objects.filter(slug="klotski").get().save()
        transaction.set_rollback(True)
    assert site_cache.current_stamp() == stamp
    with transaction.atomic():
        make_publication(title="Another")
        make_publication(title="And another")
    assert site_cache.current_stamp() != stamp


def test_logins_and_sessions_do_not_move_the_stamp(client, site, editor):
    stamp = site_cache.current_stamp()
    Client().force_login(editor)
    assert site_cache.current_stamp() == stamp


def test_a_draft_preview_is_private_and_never_cached(client, site, editor):
    make_publication(title="Secret draft", slug="secret-draft", is_published=False)
    staff = Client()
    staff.force_login(editor)

    preview = staff.get("/publications/secret-draft/")
    assert preview.status_code == 200
    assert "Secret draft" in preview.content.decode()
    assert "ETag" not in preview and "Last-Modified" not in preview
    assert "private" in preview["Cache-Control"] and "no-store" in preview["Cache-Control"]
    assert "public" not in preview["Cache-Control"]
    assert client.get("/publications/secret-draft/").status_code == 404

    # A staff member's view of a public page is neither validated nor stored for visitors.
    listing = staff.get("/publications/")
    assert "ETag" not in listing and "no-store" in listing["Cache-Control"]
    assert client.get("/publications/")[site_cache.CACHE_HEADER] == "miss"


def test_the_admin_and_the_health_check_are_never_cached(client, site):
    health = client.get("/healthz")
    assert "ETag" not in health and site_cache.CACHE_HEADER not in health
    login = client.get("/admin/login/")
    assert "ETag" not in login and site_cache.CACHE_HEADER not in login


def test_the_same_filters_in_another_order_are_one_cached_page(client, site):
    client.get("/publications/?year=2023&venue=NSDI")
    again = client.get("/publications/?venue=NSDI&year=2023")
    assert again[site_cache.CACHE_HEADER] == "hit"
    other = client.get("/publications/?year=2024&venue=NSDI")
    assert other[site_cache.CACHE_HEADER] == "miss"
    assert "Klotski" not in other.content.decode()


def test_an_etag_of_an_older_stamp_gets_the_whole_page(client, site):
    first = client.get("/publications/")
    site_cache.bump_stamp()
    response = client.get("/publications/", headers={"If-None-Match": first["ETag"]})
    assert response.status_code == 200 and response.content


def test_without_the_site_cache_every_page_is_rendered_and_unvalidated(client, site, settings):
    settings.SITE_CACHE = False
    client.get("/publications/")
    response = client.get("/publications/")
    assert "ETag" not in response and site_cache.CACHE_HEADER not in response


def test_counts_and_facets_are_shared_by_every_page_of_the_same_filters(client, site):
    """A second page of the same filters (here the same filters asked with an extra parameter,
    which the list ignores) is a new page but reuses the count, the venue, type, member, group
    and area facets, the award count and the years, the page's papers, and their entries (their
    rows, authors, awards and links: publications/entries.py), and the lab's row (kept in the
    process: pages/context_processors.py)."""
    with CaptureQueriesContext(connection) as first:
        client.get("/publications/?venue=NSDI")
    with CaptureQueriesContext(connection) as second:
        response = client.get("/publications/?venue=NSDI&utm_source=feed")
    assert response[site_cache.CACHE_HEADER] == "miss"
    assert len(first) - len(second) == 15  # and the funder facet (projects/filters.py)
    assert response.context["facets"]["venue"].options[0].count == 1
    assert response.context["page"].paginator.count == 1


def test_a_profiles_count_co_authors_and_selection_are_kept_until_the_next_change(client, site):
    colleague = make_person(name="Bo Zhao", slug="bo-zhao")
    make_publication(title="Ring", authors=[site, colleague])
    with CaptureQueriesContext(connection) as first:
        client.get("/people/hang-zhu/")
    with CaptureQueriesContext(connection) as second:
        response = client.get("/people/hang-zhu/?from=search")
    # The person with the rows the profile shows (eleven prefetches), the count per year, the
    # co-authors in and outside the lab, the selection (the year of the 8th newest paper and
    # the ids from there on, from the pair rows; then its ids), whether any is featured, its
    # entries' rows, authors, awards and links, and the co-author network (its members, then
    # their pairs), their datasets and software, their projects, and the lab's row (kept in the
    # process). What is left: the person's id, the news and the talks (upcoming, then past:
    # they follow the clock too).
    assert len(first) - len(second) == 28
    assert response.context["publication_count"] == 2
    assert [(person.name, person.shared) for person in response.context["coauthors"]] == [
        ("Bo Zhao", 1)
    ]
    make_publication(title="Ring Two", authors=[colleague, site])
    response = client.get("/people/hang-zhu/?from=search")
    assert response.context["publication_count"] == 3
    assert response.context["coauthors"][0].shared == 2
    assert "Ring Two" in [paper.title for paper in response.context["publications"]]


def test_a_papers_related_list_is_kept_until_the_next_change(client, site):
    make_publication(title="Ring", year=2024, authors=["Ann Lee", site])
    with CaptureQueriesContext(connection) as first:
        client.get("/publications/klotski/")
    with CaptureQueriesContext(connection) as second:
        response = client.get("/publications/klotski/?from=search")
    # The page's parts are kept with the related papers in them, and the lab's row: only the
    # paper's row is read (tests/publications/test_publication_page_kept.py).
    assert len(first) > len(second) == 1
    assert (
        '<bdi>Ann Lee</bdi>, <a class="member" href="/people/hang-zhu/"><bdi>Hang Zhu</bdi></a>'
        in response.text
    )
    make_publication(title="Ring Two", year=2025, authors=[site])
    assert ">Ring Two</a>" in client.get("/publications/klotski/").text


def test_each_process_keeps_its_own_copies_valid_only_under_the_shared_stamp(client, site):
    """A hit needs no read from the shared cache while the stamp holds; a change elsewhere
    (another app server's save moves the shared stamp) makes the local copy unreachable."""
    client.get("/publications/")
    stamp = site_cache.current_stamp()
    cache.clear()  # the shared pages gone (evicted, say), the stamp kept
    cache.set(site_cache.STAMP_KEY, stamp, timeout=None)
    assert client.get("/publications/")[site_cache.CACHE_HEADER] == "hit"
    Publication.objects.filter(slug="klotski").update(title="Klotski Revisited")
    site_cache.bump_stamp()  # what the other server's commit does
    response = client.get("/publications/")
    assert response[site_cache.CACHE_HEADER] == "miss"
    assert "Klotski Revisited" in response.content.decode()


def test_a_page_is_kept_once_its_answer_is_sent(site):
    """The first visitor after a change does not wait for the page to be written to the
    shared cache: it is written when the server closes the answer (request_finished), and
    the next visitor gets it whole."""
    middleware = site_cache.SiteCacheMiddleware(lambda request: HttpResponse("The people."))
    request = RequestFactory().get("/people/")
    answer = middleware(request)
    assert answer[site_cache.CACHE_HEADER] == "miss"
    key = site_cache.page_key(request, site_cache._shared_stamp())
    assert cache.get(key) is None

    answer.close()

    assert cache.get(key) is not None
    again = site_cache.SiteCacheMiddleware(lambda request: HttpResponse("Drawn anew."))(
        RequestFactory().get("/people/")
    )
    assert again[site_cache.CACHE_HEADER] == "hit"
    assert again.content == b"The people."


@pytest.mark.parametrize("url", ["/robots.txt", "/identity.css", "/identity.css?v=old"])
def test_a_page_that_says_how_long_to_keep_it_is_kept_whole_and_never_revalidated_by_the_stamp(
    client, site, url, django_assert_num_queries
):
    """Its Cache-Control is the view's (a day for robots.txt, a minute for an identity stylesheet
    of another stamp). A 304 of the stamp would say "no-cache" instead and keep browsers asking
    for it on every page: no stamp's ETag (so no browser sends it back), and a browser asks again
    only when its copy expires, and gets the kept page with the view's Cache-Control."""
    first = client.get(url)
    assert first.status_code == 200
    assert "max-age=" in first["Cache-Control"]
    assert "no-cache" not in first["Cache-Control"]
    assert "ETag" not in first

    with django_assert_num_queries(0):
        again = client.get(url)
    assert again.status_code == 200
    assert again[site_cache.CACHE_HEADER] == "hit"
    assert again["Cache-Control"] == first["Cache-Control"]
    assert again.content == first.content


def test_a_page_kept_in_another_form_is_drawn_anew_and_kept_again(client, site):
    """A shared entry that is not this code's pickled page (one kept by the code before it,
    under a release pinned by SITE_RELEASE across a deploy) is a miss, never an error."""
    request = RequestFactory().get("/people/")
    key = site_cache.page_key(request, site_cache._shared_stamp())
    cache.set(key, HttpResponse("Kept by older code."))

    response = client.get("/people/")

    assert response.status_code == 200
    assert response[site_cache.CACHE_HEADER] == "miss"
    assert "Hang Zhu" in response.text
    assert client.get("/people/")[site_cache.CACHE_HEADER] == "hit"
