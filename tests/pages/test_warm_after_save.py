"""After an editor's save, the process that answered it renders the pages showing the change
(the paper's page, its members' profiles and lists of papers) and keeps them, so that the first
visitor after the edit gets them from the cache (base.site_cache.warm_after_answer,
pages/warming.py; issue 24).

These tests commit for real (transaction=True): pages are warmed once the save commits and its
answer is closed, as a server does.
"""

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse

from base import site_cache
from publications.models import Publication
from tests.admin_forms import publication_form
from tests.factories import make_cached_site, make_person, make_publication

pytestmark = pytest.mark.django_db(transaction=True)

PAGES = ["/publications/klotski/", "/people/hang-zhu/", "/publications/?author=hang-zhu"]


@pytest.fixture
def site():
    return make_cached_site()


def save_in_the_admin(editor, **fields) -> None:
    staff = Client()
    staff.force_login(editor)
    paper = Publication.objects.get(slug="klotski")
    change = reverse("admin:publications_publication_change", args=[paper.pk])
    assert staff.post(change, publication_form(paper, **fields)).status_code == 302


def test_an_editors_save_leaves_the_pages_showing_it_kept_as_a_visitor_gets_them(
    site, editor, settings
):
    for url in PAGES:
        assert Client().get(url)[site_cache.CACHE_HEADER] == "miss"

    save_in_the_admin(editor, title="Klotski Revisited")

    warmed = {url: Client().get(url) for url in PAGES}
    settings.SITE_CACHE = False
    drawn = {url: Client().get(url) for url in PAGES}
    for url in PAGES:
        assert warmed[url][site_cache.CACHE_HEADER] == "hit", url
        assert "Klotski Revisited" in warmed[url].text, url
        # What an anonymous visitor is given: nothing of the editor who saved (no edit link).
        assert warmed[url].content == drawn[url].content, url


def test_a_profile_whose_counts_the_save_moved_is_kept_with_them_counted_anew(
    site, editor, settings
):
    """With counts served late after a write (production's bound), the profile drawn right
    after a year edit shows the old counts and is not kept: it is drawn again once they are
    counted anew, and kept."""
    settings.SITE_CACHE_LAG_SECONDS = 60
    assert 'aria-label="2023: 1 publication"' in Client().get("/people/hang-zhu/").text

    save_in_the_admin(editor, year=2020)

    profile = Client().get("/people/hang-zhu/")
    assert profile[site_cache.CACHE_HEADER] == "hit"
    assert 'aria-label="2020: 1 publication"' in profile.text
    assert 'aria-label="2023: 1 publication"' not in profile.text


def test_a_failure_to_warm_leaves_the_save_saved_and_the_page_drawn_on_request(
    site, editor, monkeypatch
):
    def broken(scopes, most):
        raise RuntimeError("the pages to warm could not be listed")

    monkeypatch.setattr(site_cache, "_pages_to_warm", [broken])
    save_in_the_admin(editor, title="Klotski Revisited")
    first = Client().get("/publications/klotski/")
    assert first[site_cache.CACHE_HEADER] == "miss"
    assert "Klotski Revisited" in first.text


def test_nothing_is_warmed_when_the_site_is_told_to_warm_no_page(site, editor, settings):
    settings.SITE_CACHE_WARM_PAGES = 0
    save_in_the_admin(editor, title="Klotski Revisited")
    for url in PAGES:
        first = Client().get(url)
        assert first[site_cache.CACHE_HEADER] == "miss", url
        assert "Klotski Revisited" in first.text


def test_a_save_outside_a_request_warms_nothing(site):
    """An import or a command saves outside any request: it does not render pages besides."""
    paper = Publication.objects.get(slug="klotski")
    paper.title = "Klotski Revisited"
    with transaction.atomic():
        paper.save()
    first = Client().get("/publications/klotski/")
    assert first[site_cache.CACHE_HEADER] == "miss"
    assert "Klotski Revisited" in first.text


def test_a_draft_is_not_warmed_and_its_page_stays_hidden(site, editor):
    save_in_the_admin(editor, title="Klotski Revisited", is_published="")
    assert Client().get("/publications/klotski/").status_code == 404
    profile = Client().get("/people/hang-zhu/")
    assert profile[site_cache.CACHE_HEADER] == "hit"
    assert "Klotski" not in profile.text


def test_a_change_of_many_papers_warms_the_people_and_none_of_the_papers(site, settings):
    """A person renamed on all their papers: a page among many is not the one opened next."""
    from pages.warming import pages_showing

    member = make_person(name="Jane Roe", slug="jane-roe")
    papers = [make_publication(title=f"Paper {n}", authors=[member]) for n in range(5)]
    scopes = frozenset(
        {f"person:{member.pk}", *(f"paper:{paper.pk}" for paper in papers), "people"}
    )
    assert pages_showing(scopes, 4) == ["/people/jane-roe/"]
    # Their papers written: the list of them too, within the number asked for.
    their_papers = frozenset({f"papers-of:{member.pk}"})
    assert pages_showing(their_papers, 4) == ["/people/jane-roe/", "/publications/?author=jane-roe"]
    assert pages_showing(their_papers, 1) == ["/people/jane-roe/"]
    # Their own row saved (it names their papers too): a bio changes no list.
    assert pages_showing(scopes | their_papers, 4) == ["/people/jane-roe/"]
    assert pages_showing(frozenset({f"paper:{papers[0].pk}"}), 4) == [papers[0].get_absolute_url()]
