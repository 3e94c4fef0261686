"""Two people who go by one name: the author is linked to the one published member when the
others are drafts; otherwise to nobody, and the BibTeX review and the author row say why."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from publications.models import Publication
from tests.admin_pages import change_form_data
from tests.department import make_external
from tests.factories import make_person, make_publication

pytestmark = pytest.mark.django_db

IMPORT = reverse("admin:publications_publication_import_bibtex")
BIB = b"@article{li2025, title={Shared Names}, author={Wei Li and Ada Lovelace}, year=2025}"


def change_url(paper) -> str:
    return reverse("admin:publications_publication_change", args=[paper.pk])


def review(client) -> str:
    response = client.post(IMPORT, {"file": SimpleUploadedFile("p.bib", BIB), "text": ""})
    assert response.status_code == 200
    return response.content.decode()


def test_a_name_one_published_member_shares_only_with_drafts_is_matched_to_that_member(
    editor_client,
):
    """Before, a draft profile of the same name (a second one begun for the same person, say)
    stopped every linking of the name without a word."""
    wei = make_person(name="Wei Li", slug="wei-li")
    make_person(name="Wei Li", slug="wei-li-draft", is_published=False)
    make_person(name="W. Li", slug="w-li-draft", aliases="Wei Li", is_published=False)
    paper = make_publication(authors=["Wei Li"])
    response = editor_client.post(
        change_url(paper), change_form_data(editor_client.get(change_url(paper)))
    )
    assert response.status_code == 302
    # Proposed to Wei Li: an editor's plain save links no member by name (issue 27).
    assert paper.authorships.get().proposed_person == wei
    assert f'member <a href="{reverse("admin:people_person_change", args=[wei.pk])}"' in review(
        editor_client
    )


def test_the_review_says_who_goes_by_a_name_it_does_not_link(editor_client):
    make_person(name="Wei Li", slug="wei-li")
    make_person(name="Wei Li", slug="wei-li-draft", is_published=False)
    make_external(name="Wei Li", affiliation="CMU")
    html = review(editor_client)
    assert (
        "Not linked: 3 people go by “Wei Li”: Wei Li, member at /people/wei-li/; Wei Li, "
        "member at /people/wei-li-draft/ (draft); Wei Li (CMU), external person. "
        "Choose who it is."
    ) in html


def test_the_author_row_says_who_goes_by_its_name_and_staff_choose_one(editor_client):
    first = make_person(name="Wei Li", slug="wei-li")
    make_person(name="Wei Li", slug="wei-li-2")
    paper = make_publication(authors=["Wei Li"])
    page = editor_client.get(change_url(paper))
    assert (
        "Not linked: 2 people go by “Wei Li”: Wei Li, member at /people/wei-li/; Wei Li, "
        "member at /people/wei-li-2/. Choose who it is."
    ) in page.content.decode()
    data = change_form_data(page) | {"authorships-0-researcher": str(first.pk)}
    assert editor_client.post(change_url(paper), data).status_code == 302
    assert Publication.objects.authored_by(first).get() == paper
    assert "Not linked" not in editor_client.get(change_url(paper)).content.decode()
