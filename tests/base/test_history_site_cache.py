"""Reverting and recovering in the admin write rows beneath the forms (base/versions.py
restores a paper's parts and what pointed at it, row by row): each of those writes moves the
change stamp, so a page cached before shows the restored rows after, and the paper's stored
search text is the restored one (base/site_cache.py, publications/search.py).

These tests commit for real, as tests/base/test_site_cache.py does: the stamp moves on commit."""

import pytest
from django.test import Client
from django.urls import reverse

from base import site_cache
from base.models import Lab
from publications.models import Publication
from tests.admin_pages import change_form_data
from tests.base.test_history_versions import (  # noqa: F401  (paper: the fixture)
    edit,
    paper,
    revert,
)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def visitor():
    Lab.objects.current()  # made on the first page otherwise, which would move the stamp
    return Client()


def test_a_reverted_paper_shows_its_old_title_and_authors_on_a_page_cached_before(
    visitor,
    editor_client,
    paper,  # noqa: F811
):
    first = paper.history.earliest()
    edit(editor_client, paper, title="New Title", **{"authorships-0-name": "H. Zhu"})
    edited = visitor.get("/publications/original/")
    assert "New Title" in edited.content.decode()
    assert visitor.get("/publications/original/")[site_cache.CACHE_HEADER] == "hit"

    assert revert(editor_client, Publication, paper.pk, first).status_code == 302

    after = visitor.get("/publications/original/", headers={"If-None-Match": edited["ETag"]})
    assert after.status_code == 200
    assert "Original Title" in after.content.decode() and "Hang Zhu" in after.content.decode()
    found = visitor.get("/publications/", {"q": "hang zhu"}).content.decode()
    assert "Original Title" in found


def test_a_recovered_paper_is_back_on_the_list_cached_while_it_was_deleted(
    visitor,
    editor_client,
    paper,  # noqa: F811
):
    delete = reverse("admin:publications_publication_delete", args=[paper.pk])
    assert editor_client.post(delete, {"post": "yes"}).status_code == 302
    without = visitor.get("/publications/")
    assert "Original Title" not in without.content.decode()
    assert visitor.get("/publications/")[site_cache.CACHE_HEADER] == "hit"

    (row,) = editor_client.get(reverse("admin:publications_publication_deleted")).context["rows"]
    page = editor_client.get(row["url"])
    assert editor_client.post(row["url"], change_form_data(page)).status_code == 302

    after = visitor.get("/publications/", headers={"If-None-Match": without["ETag"]})
    assert after.status_code == 200
    assert "Original Title" in after.content.decode()
    assert "Original Title" in visitor.get("/publications/", {"q": "tao"}).content.decode()
