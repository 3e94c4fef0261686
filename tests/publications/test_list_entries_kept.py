"""The entries of publication lists and each paper's BibTeX, rendered once per change and shared
by every list and export that shows the paper (publications/entries.py,
publications.exports.bibtex_entries, base.site_cache.cached_each).

These tests commit for real (transaction=True): the change stamp moves when a transaction
commits, as on a live site. The page cache is off (SITE_CACHE=False) so that every request
renders its page, and only the kept entries are reused.
"""

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from base import site_cache
from people.models import Person
from publications import exports
from publications.entries import listed
from publications.exports import bibtex_entries
from publications.models import Authorship, Publication, PublicationAward, Venue
from tests.admin_forms import publication_form
from tests.factories import make_publication

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("no_page_cache")]


# A prefetch of what entries show for given papers: their authors, awards or links.
ENTRY_LOAD = re.compile(
    r'"publications_(authorship|publicationaward|publicationlink)"\."publication_id" IN \(\d'
)


def entry_queries(queries: CaptureQueriesContext) -> list[str]:
    return [query["sql"] for query in queries if ENTRY_LOAD.search(query["sql"])]


def test_a_list_rendered_again_reuses_every_entry_another_list_rendered(client, member_with_papers):
    client.get("/publications/")
    with CaptureQueriesContext(connection) as again:
        profile = client.get("/people/hang-zhu/")
        by_year = client.get("/publications/?year=2024")
    assert profile.status_code == by_year.status_code == 200
    assert entry_queries(again) == []
    assert (
        '<bdi>Ann Lee</bdi>, <a class="member" href="/people/hang-zhu/"><bdi>Hang Zhu</bdi></a>'
        in by_year.text
    )


def test_a_kept_entry_is_the_entry_rendered_anew(client, member_with_papers, settings):
    first = client.get("/publications/").text
    kept = client.get("/publications/").text
    site_cache.bump_stamp()  # nothing kept any more
    fresh = client.get("/publications/").text
    assert kept == first == fresh
    assert fresh.count('<li class="publication">') == 2


@pytest.mark.parametrize(
    "edit, shown, gone",
    [
        (
            lambda: Authorship.objects.filter(name="Ann Lee").update(name="Ann B. Lee"),
            "<bdi>Ann B. Lee</bdi>, ",
            "<bdi>Ann Lee</bdi>, ",
        ),
        (
            lambda: Person.objects.filter(slug="hang-zhu").update(is_published=False),
            "<bdi>Ann Lee</bdi>, <bdi>Hang Zhu</bdi>",
            'href="/people/hang-zhu/"',
        ),
        (
            lambda: Venue.objects.filter(short_name="NSDI").update(short_name="NSDI '24"),
            ">NSDI &#x27;24</span>",
            ">NSDI</span>",
        ),
        (
            lambda: PublicationAward.objects.create(
                publication=Publication.objects.get(slug="ring"), position=1, name="Best Paper"
            ),
            '<span class="badge badge--award">Best Paper</span>',
            "no such text",
        ),
    ],
    ids=["author renamed", "member unpublished", "venue renamed", "award added"],
)
def test_an_edit_to_any_row_an_entry_shows_reaches_the_next_list(
    client, member_with_papers, edit, shown, gone
):
    client.get("/publications/")
    edit()
    site_cache.note_change()  # update() sends no signal; the admin's saves do (tested below)
    page = client.get("/publications/?year=2024").text
    assert shown in page
    assert gone not in page


def test_a_save_in_the_admin_reaches_the_kept_entries(client, member_with_papers, editor):
    client.get("/publications/")
    client.get("/publications/export.bib")
    staff = Client()
    staff.force_login(editor)
    paper = Publication.objects.get(slug="ring")
    change = reverse("admin:publications_publication_change", args=[paper.pk])
    assert staff.post(change, publication_form(paper, title="Ring Revisited")).status_code == 302
    page = client.get("/publications/").text
    assert ">Ring Revisited</a>" in page
    assert ">Ring</a>" not in page
    assert "title = {{Ring Revisited}}" in client.get("/publications/export.bib").text


def test_a_staff_members_visit_keeps_nothing_a_visitor_should_not_see(
    client, member_with_papers, editor
):
    """Entries show no staff-only markup: the one a staff member's list rendered is the one a
    visitor gets."""
    staff = Client()
    staff.force_login(editor)
    staff.get("/publications/")
    with CaptureQueriesContext(connection) as visit:
        page = client.get("/publications/").text
    assert entry_queries(visit) == []
    assert "/admin/" not in page.split('<ol class="publication-list">')[1].split("</ol>")[0]


def test_each_site_address_has_entries_of_its_own(client, member_with_papers, settings):
    """The COinS span of an entry holds the paper's full address, which depends on the host
    the page was asked on."""
    settings.ALLOWED_HOSTS = ["lab.example.org", "mirror.example.org"]
    first = client.get("/publications/", HTTP_HOST="lab.example.org").text
    second = client.get("/publications/", HTTP_HOST="mirror.example.org").text
    assert "http%3A%2F%2Flab.example.org%2Fpublications%2Fring%2F" in first
    assert "http%3A%2F%2Fmirror.example.org%2Fpublications%2Fring%2F" in second
    assert "lab.example.org" not in second


def loaded_papers(queries: CaptureQueriesContext) -> set[int]:
    """The ids of the papers whose entries were loaded to be rendered."""
    load = re.compile(r'WHERE "publications_publication"\."id" IN \(([\d, ]+)\)')
    return {int(pk) for q in queries for match in load.findall(q["sql"]) for pk in match.split(",")}


def test_a_process_keeps_at_most_the_entries_it_is_told(client, member_with_papers, settings):
    settings.SITE_CACHE_LOCAL_ENTRIES = 1
    make_publication(title="Third", year=2022, authors=[member_with_papers])
    with CaptureQueriesContext(connection) as first:
        client.get("/publications/")
    with CaptureQueriesContext(connection) as again:
        client.get("/publications/")
    papers = dict(Publication.objects.values_list("title", "pk"))
    assert loaded_papers(first) == set(papers.values())
    # Only the last entry rendered (the list's last: the oldest paper) was kept.
    assert loaded_papers(again) == {papers["Ring"], papers["Klotski"]}
    assert len(site_cache._kept["publication-entry"].values) == 1


def test_no_entry_is_kept_from_inside_a_transaction_that_wrote(client, member_with_papers):
    """A page asked for while the writing transaction is open (before the stamp moves) must not
    leave its entries for the next request under the old stamp."""
    from django.db import transaction

    with transaction.atomic():
        Publication.objects.filter(slug="ring").update(title="Uncommitted")
        site_cache.note_change()
        assert ">Uncommitted</a>" in client.get("/publications/").text
        transaction.set_rollback(True)
    assert ">Ring</a>" in client.get("/publications/").text


def test_an_export_of_papers_a_list_showed_reads_only_their_ids(client, member_with_papers):
    """The "Cite" blocks of the list wrote each paper's BibTeX: the export reuses it."""
    client.get("/publications/")
    with CaptureQueriesContext(connection) as export:
        response = client.get("/publications/export.bib?venue=NSDI")
    tables = [query["sql"].split(" FROM ")[1].split()[0] for query in export]
    assert tables.count('"publications_publication"') == 2  # the count and the ids
    assert entry_queries(export) == []
    assert response.text.count("@inproceedings{") == 2
    site_cache.bump_stamp()
    assert client.get("/publications/export.bib?venue=NSDI").text == response.text


def test_an_edit_reaches_the_next_export(client, member_with_papers):
    client.get("/publications/export.bib")
    Authorship.objects.filter(name="Ann Lee").update(name="Ann B. Lee")
    site_cache.note_change()
    export = client.get("/publications/export.bib").text
    assert "Ann B. Lee and Hang Zhu" in export
    assert "Ann Lee" not in export


def test_without_a_shared_cache_nothing_is_kept(client, member_with_papers, settings):
    """dummy:// keeps no stamp: every list is rendered from the rows as they are."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.dummy.DummyCache"}}
    client.get("/publications/")
    Publication.objects.filter(slug="ring").update(title="Ring Revisited")
    assert ">Ring Revisited</a>" in client.get("/publications/").text


def test_a_paper_deleted_after_it_was_listed_is_left_out(rf, member_with_papers):
    """Between the list's ids and the load of its entries a paper may be deleted: the list
    shows the others (it was a KeyError, a 500)."""
    from django.template import Context, Template

    request = rf.get("/publications/")
    listed_rows = listed(Publication.objects.published())
    Publication.objects.filter(slug="ring").delete()
    template = Template(
        "{% load publications %}{% publications_by_year publications as years %}"
        "{% for year, entries in years %}{{ entries }}{% endfor %}"
    )
    html = template.render(Context({"publications": listed_rows, "request": request}))
    assert html.count('<li class="publication">') == 1
    assert "Klotski" in html
    assert "\n".join(bibtex_entries([Publication.objects.get(slug="klotski")]).values()).startswith(
        "@"
    )


def test_a_save_committed_while_a_list_renders_is_not_hidden_by_it(
    client, member_with_papers, monkeypatch
):
    """The stamp is read once when a request begins: what the request renders from rows read
    before a save committed is kept under the old stamp, never under the new one."""
    original = exports.with_citations

    def save_meanwhile(papers):
        if not getattr(save_meanwhile, "done", False):
            save_meanwhile.done = True
            paper = Publication.objects.get(slug="ring")
            paper.title = "Ring Revisited"
            paper.save()  # commits and moves the stamp, after this request loaded its rows
        return original(papers)

    monkeypatch.setattr(exports, "with_citations", save_meanwhile)
    assert ">Ring</a>" in client.get("/publications/").text
    monkeypatch.setattr(exports, "with_citations", original)
    page = client.get("/publications/").text
    assert ">Ring Revisited</a>" in page
    assert "title = {{Ring Revisited}}" in page


def test_the_embed_and_the_site_search_show_entries_without_their_cite_blocks(
    client, member_with_papers
):
    client.get("/publications/")  # entries with their Cite blocks kept
    embed = client.get("/publications/embed/").text
    search = client.get("/search/?q=ring").text
    listing = client.get("/publications/").text
    assert "Klotski" in embed and "Ring" in search
    assert "cite__bibtex" not in embed and "cite__bibtex" not in search
    assert listing.count("cite__bibtex") == 2
