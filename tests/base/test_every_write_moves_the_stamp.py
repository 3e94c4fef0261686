"""Every way the code writes rows a public page shows moves the site's change stamp, so the
page shows the write on the next request with the page cache on (base/site_cache.py):
saves and deletes through signals, and `update()`, `bulk_update()`, `bulk_create()` and
`delete()` through SiteQuerySet (base/querysets.py), which the system check
directory.E003 makes every site model use.

Each case fetches a page (kept in the cache), writes through one path (a service, an admin
action, a bulk write), then fetches the page again: it must show the write. These tests commit
for real (transaction=True): the stamp moves when a transaction commits.
"""

import io
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

import pytest
from django.core import checks
from django.core.management import call_command
from django.db import models
from django.test import Client
from django.urls import reverse

from base import site_cache
from base.models import Lab
from news.models import NewsItem
from people.models import ExternalPerson, IdentityChange
from people.services import merge_external_people, split_author_rows
from publications.bibtex.importing import import_bibtex
from publications.models import Authorship, Publication
from tests.admin_pages import change_form_data
from tests.cases import make_editor
from tests.department import make_external
from tests.factories import make_news, make_person, make_publication
from tests.identifier_service import DATA as IDENTIFIER_DATA

pytestmark = pytest.mark.django_db(transaction=True)

XIN = "https://xin.example/"
NAMESAKE = "https://namesake.example/"
PROFILE = "/people/hang-zhu/"


def make_member():
    return make_person(name="Hang Zhu", slug="hang-zhu")


@dataclass
class Write:
    """A page, the write, and what the write makes the page show (`shown`) or drop (`gone`)."""

    url: str
    write: Callable[[], object]
    shown: str = ""
    gone: str = ""


def _split_onto_a_namesake(*, undo_in_admin: bool) -> Write:
    """A member's paper with "Xin Jin", linked to the record with Xin's homepage, split onto
    another record of that name (a namesake with a homepage of their own): the member's
    profile lists the other record among their co-authors outside the lab. Onto an existing
    record, so neither the split nor its undo deletes a record: only the author rows move, in
    bulk (people/services.py: move_rows), and the undo is marked with an update()."""
    paper = make_publication(authors=[make_member(), "Xin Jin"], slug="load-balancing")
    xin = make_external(name="Xin Jin", slug="xin-jin", homepage=XIN)
    namesake = make_external(name="Xin Jin", slug="xin-jin-2", homepage=NAMESAKE)
    row = Authorship.objects.get(publication=paper, position=2)
    assert row.external == xin
    url = PROFILE
    if not undo_in_admin:
        return Write(
            url,
            lambda: split_author_rows(record=xin, authorship_ids=[row.pk], into=namesake),
            shown=NAMESAKE,
            gone=XIN,
        )
    change = split_author_rows(record=xin, authorship_ids=[row.pk], into=namesake)

    def undo() -> None:
        staff = Client()
        staff.force_login(make_editor())
        changelist = reverse("admin:people_identitychange_changelist")
        form = {"action": "undo_selected", "_selected_action": [str(change.pk)]}
        assert staff.post(changelist, form).status_code == 302
        assert IdentityChange.objects.get(pk=change.pk).undone_at is not None

    return Write(url, undo, shown=XIN, gone=NAMESAKE)


def _admin_merge() -> Write:
    make_publication(authors=[make_member(), "X. Jin"], slug="load-balancing")
    xin = make_external(name="Xin Jin", slug="xin-jin", homepage=XIN)
    x = make_external(name="X. Jin", slug="x-jin", homepage=NAMESAKE)

    def merge() -> None:
        staff = Client()
        staff.force_login(make_editor())
        changelist = reverse("admin:people_externalperson_changelist")
        form = {
            "action": "merge_selected",
            "_selected_action": [str(xin.pk), str(x.pk)],
            "keep": str(xin.pk),
        }
        assert staff.post(changelist, form).status_code == 302
        assert not ExternalPerson.objects.filter(pk=x.pk).exists()

    return Write(PROFILE, merge, shown=XIN, gone=NAMESAKE)


def _service_merge() -> Write:
    make_publication(authors=[make_member(), "X. Jin"], slug="load-balancing")
    xin = make_external(name="Xin Jin", slug="xin-jin", homepage=XIN)
    x = make_external(name="X. Jin", slug="x-jin", homepage=NAMESAKE)
    merge = lambda: merge_external_people(keep=xin, absorb=x)  # noqa: E731
    return Write(PROFILE, merge, shown=XIN, gone=NAMESAKE)


def _queryset_update() -> Write:
    paper = make_publication(title="Klotski", slug="klotski")
    rename = lambda: Publication.objects.filter(pk=paper.pk).update(title="Klotski Revisited")  # noqa: E731
    return Write("/publications/", rename, shown="Klotski Revisited")


def _bulk_update() -> Write:
    paper = make_publication(title="Klotski", slug="klotski")

    def rename() -> None:
        paper.title = "Klotski Revisited"
        Publication.objects.bulk_update([paper], ["title"])

    return Write(paper.get_absolute_url(), rename, shown="Klotski Revisited")


def _bulk_create() -> Write:
    make_news(title="An older story")
    story = NewsItem(title="A new grant", slug="a-new-grant", date="2026-08")
    return Write("/news/", lambda: NewsItem.objects.bulk_create([story]), shown="A new grant")


def _queryset_delete() -> Write:
    make_publication(title="Klotski", slug="klotski")
    make_publication(title="Sirius", slug="sirius")

    def delete() -> None:
        Publication.objects.filter(slug="sirius").delete()

    return Write("/publications/", delete, gone="Sirius")


def _admin_reorder() -> Write:
    """Authors swapped in the paper's change form: the ordered inline moves rows with
    update()s (base/ordered_admin.py)."""
    paper = make_publication(authors=["Ada Lovelace", "Grace Hopper"], slug="klotski")

    def swap() -> None:
        staff = Client()
        staff.force_login(make_editor())
        url = reverse("admin:publications_publication_change", args=[paper.pk])
        data = change_form_data(staff.get(url))
        data["authorships-0-position"], data["authorships-1-position"] = "2", "1"
        assert staff.post(url, data).status_code == 302

    swapped = "<bdi>Grace Hopper</bdi>, <bdi>Ada Lovelace</bdi>"
    return Write(paper.get_absolute_url(), swap, shown=swapped)


def _bibtex_import() -> Write:
    make_publication(title="Klotski", slug="klotski")
    text = "@inproceedings{sirius24, title={Sirius}, author={Bo Zhao}, year={2024}}"
    return Write("/publications/", lambda: import_bibtex(text=text), shown="Sirius")


def _import_bibtex_command() -> Write:
    make_publication(title="Klotski", slug="klotski")

    def command() -> None:
        with tempfile.TemporaryDirectory() as folder:
            bib = Path(folder) / "sirius.bib"
            bib.write_text(
                "@inproceedings{sirius24, title={Sirius}, author={Bo Zhao}, year={2024}}"
            )
            call_command("import_bibtex", str(bib), stdout=io.StringIO())

    return Write("/publications/", command, shown="Sirius")


def _import_works_command() -> Write:
    """Papers added from a file a service exported (publications/identifiers/)."""
    make_publication(title="Klotski", slug="klotski")

    def command() -> None:
        with tempfile.TemporaryDirectory() as folder:
            export = Path(folder) / "works.xml"
            export.write_bytes((IDENTIFIER_DATA / "dblp-person.xml").read_bytes())
            call_command("import_works", "--file", str(export), stdout=io.StringIO())

    return Write("/publications/", command, shown="Networks Are Computers")


def _seed_command() -> Write:
    """`manage.py seed` on an empty site: loaddata's raw saves, then the first versions."""
    seed = lambda: call_command("seed", verbosity=0, stdout=io.StringIO())  # noqa: E731
    return Write("/people/", seed, shown="Hang Zhu")


WRITES: dict[str, Callable[[], Write]] = {
    "a split of author rows (people.services.split_author_rows)": lambda: _split_onto_a_namesake(
        undo_in_admin=False
    ),
    "the admin's Undo of a split (IdentityChangeAdmin.undo_selected)": lambda: (
        _split_onto_a_namesake(undo_in_admin=True)
    ),
    "the admin's merge of two records (ExternalPersonAdmin.merge_selected)": _admin_merge,
    "a merge of two records (people.services.merge_external_people)": _service_merge,
    "the admin's reordering of a paper's authors (base.ordered_admin)": _admin_reorder,
    "a BibTeX import (publications.bibtex.importing.import_bibtex)": _bibtex_import,
    "manage.py import_bibtex": _import_bibtex_command,
    "manage.py import_works": _import_works_command,
    "manage.py seed": _seed_command,
    "a queryset update()": _queryset_update,
    "a bulk_update()": _bulk_update,
    "a bulk_create()": _bulk_create,
    "a queryset delete()": _queryset_delete,
}


@pytest.mark.parametrize("path", WRITES)
def test_a_public_page_shows_each_write_on_the_next_request(client, settings, path):
    settings.SITE_CACHE = True
    # As in production: counts may be shown late right after a write, nothing else.
    settings.SITE_CACHE_LAG_SECONDS = 60
    Lab.objects.current()  # made on the first page otherwise, which would move the stamp
    case = WRITES[path]()
    before = client.get(case.url).content.decode()
    assert case.gone in before
    assert not case.shown or case.shown not in before
    assert client.get(case.url)[site_cache.CACHE_HEADER] == "hit"

    case.write()

    after = client.get(case.url).content.decode()
    assert case.shown in after, f"{case.url} is stale after {path}"
    assert not case.gone or case.gone not in after, f"{case.url} is stale after {path}"


# delete() is not here: Django sends post_delete for each row while a receiver listens.
@pytest.mark.parametrize("method", ["update", "bulk_update", "bulk_create"])
def test_each_bulk_write_of_a_site_model_moves_the_stamp(method):
    record = make_external(name="Xin Jin", slug="xin-jin")
    before = site_cache.current_stamp()
    records = ExternalPerson.objects.filter(pk=record.pk)
    if method == "update":
        records.update(affiliation="Peking University")
    elif method == "bulk_update":
        record.affiliation = "Peking University"
        ExternalPerson.objects.bulk_update([record], ["affiliation"])
    else:
        ExternalPerson.objects.bulk_create([ExternalPerson(name="Bo Zhao", slug="bo-zhao")])
    assert site_cache.current_stamp() != before


def test_a_site_model_whose_manager_skips_the_stamp_fails_the_system_check():
    plain = models.Manager()
    plain.model = ExternalPerson
    with mock.patch.object(ExternalPerson._meta, "default_manager", plain):
        errors = checks.run_checks(tags=[checks.Tags.models])
    assert [error.obj for error in errors if error.id == "directory.E003"] == [ExternalPerson]
    assert not [error for error in checks.run_checks() if error.id == "directory.E003"]


def test_an_edit_of_one_paper_shows_on_every_page_that_shows_it(client, settings):
    """Caches follow the paper, its members and the lists (base/caches.py), not every
    write: an edit of paper A still shows, on the next request, on A's page, the list, each
    member author's profile and their group's page; the other paper's page keeps its own."""
    from django.db import transaction

    from tests.department import make_membership, make_research_group

    settings.SITE_CACHE = True
    settings.SITE_CACHE_LAG_SECONDS = 60
    Lab.objects.current()
    hang, bo = make_member(), make_person(name="Bo Zhao", slug="bo-zhao")
    group = make_research_group(name="Systems", slug="systems", is_published=True)
    make_membership(hang, group)
    paper = make_publication(title="Klotski", slug="klotski", authors=[hang, bo])
    other = make_publication(title="Sirius", slug="sirius", authors=[bo])
    pages = [paper.get_absolute_url(), "/publications/", PROFILE, "/people/bo-zhao/"]
    pages += ["/groups/systems/"]
    for url in [*pages, other.get_absolute_url()]:
        assert "Klotski" in client.get(url).text or url == other.get_absolute_url()
        assert client.get(url)[site_cache.CACHE_HEADER] == "hit"

    paper.title = "Klotski Revisited"
    with transaction.atomic():
        paper.save()

    for url in pages:
        assert "Klotski Revisited" in client.get(url).text, f"{url} is stale after the edit"
    assert "Sirius" in client.get(other.get_absolute_url()).text
