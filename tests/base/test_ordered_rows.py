"""Authors, awards, links and CV entries are ordered by the place staff give them (the script
numbers places when rows are dragged); the server sorts, numbers 1, 2, 3… and never
refuses two rows asking for one place. A long author list is shown a page at a time."""

import pytest
from django.urls import reverse

from base.ordered_admin import ROWS_PER_PAGE
from people.models import Education
from publications.models import Authorship, Publication
from tests.admin_forms import inline_management
from tests.admin_pages import change_form_data
from tests.factories import count_queries, make_person, make_publication, make_venue

pytestmark = pytest.mark.django_db


def change_url(obj) -> str:
    return reverse(f"admin:{obj._meta.app_label}_{obj._meta.model_name}_change", args=[obj.pk])


def authors(publication) -> list[tuple[int, str]]:
    return list(publication.authorships.order_by("position").values_list("position", "name"))


def test_two_authors_swap_places_without_a_uniqueness_error(editor_client):
    paper = make_publication(authors=["Ada", "Grace", "Edsger"])
    page = editor_client.get(change_url(paper))
    data = change_form_data(page)
    data["authorships-0-position"], data["authorships-1-position"] = "2", "1"
    response = editor_client.post(change_url(paper), data)
    assert response.status_code == 302, response.context["errors"]
    assert authors(paper) == [(1, "Grace"), (2, "Ada"), (3, "Edsger")]


def test_a_new_paper_with_no_places_typed_keeps_the_order_of_its_rows(editor_client):
    venue = make_venue()
    names = ["First", "Second", "Third", "Fourth", "Fifth"]
    data = {
        "title": "Unnumbered",
        "slug": "unnumbered",
        "venue": venue.pk,
        "year": "2026",
        "type": Publication.Type.CONFERENCE_PAPER,
        "status": Publication.Status.PUBLISHED,
        "is_published": "on",
        **inline_management("authorships", total=6),  # the last row left empty
        **{f"authorships-{index}-name": name for index, name in enumerate(names)},
        **inline_management("awards"),
        **inline_management("links"),
    }
    response = editor_client.post(reverse("admin:publications_publication_add"), data)
    assert response.status_code == 302, response.context["errors"]
    paper = Publication.objects.get(slug="unnumbered")
    assert authors(paper) == list(enumerate(names, start=1))


def test_the_places_the_script_numbered_after_a_drag_decide_the_order(editor_client):
    """The fifth author dragged to second place: the script posts places 1, 3, 4, 5, 2."""
    paper = make_publication(authors=["A", "B", "C", "D", "E"])
    data = change_form_data(editor_client.get(change_url(paper)))
    for index, place in enumerate([1, 3, 4, 5, 2]):
        data[f"authorships-{index}-position"] = str(place)
    assert editor_client.post(change_url(paper), data).status_code == 302
    assert [name for _, name in authors(paper)] == ["A", "E", "B", "C", "D"]


def test_a_deleted_author_leaves_no_gap(editor_client):
    paper = make_publication(authors=["A", "B", "C"])
    data = change_form_data(editor_client.get(change_url(paper)))
    data["authorships-0-DELETE"] = "on"
    assert editor_client.post(change_url(paper), data).status_code == 302
    assert authors(paper) == [(1, "B"), (2, "C")]


def test_cv_entries_are_reordered_the_same_way(editor_client):
    person = make_person()
    for position, institution in enumerate(["JHU", "SJTU"], start=1):
        Education.objects.create(person=person, position=position, institution=institution)
    data = change_form_data(editor_client.get(change_url(person)))
    data["education-0-position"], data["education-1-position"] = "2", "1"
    assert editor_client.post(change_url(person), data).status_code == 302
    assert list(person.education.values_list("institution", flat=True)) == ["SJTU", "JHU"]


def test_the_author_rows_say_they_are_in_order_and_link_a_member_without_a_delete_icon(
    editor_client,
):
    member = make_person(name="Hang Zhu")
    paper = make_publication(authors=[member, "Someone"])
    page = editor_client.get(change_url(paper)).content.decode()
    assert "Authors (in order)" in page
    assert 'id="view_id_authorships-0-researcher"' in page
    assert 'id="delete_id_authorships-0-researcher"' not in page
    assert 'id="add_id_authorships-0-researcher"' not in page
    assert "lab-admin/js/ordered-rows.js" in page


@pytest.fixture
def long_paper():
    paper = make_publication(title="Many", authors=[f"Author {n}" for n in range(1, 251)])
    return paper


def test_a_long_author_list_is_shown_a_page_at_a_time(editor_client, long_paper):
    response = editor_client.get(change_url(long_paper), {"authorships-page": 2})
    formset = next(
        inline.formset
        for inline in response.context["inline_admin_formsets"]
        if inline.formset.prefix == "authorships"
    )
    names = [form.instance.name for form in formset.initial_forms]
    assert len(names) == ROWS_PER_PAGE == 50
    assert names[0] == "Author 51" and names[-1] == "Author 100"
    page = response.content.decode()
    assert "250 authors (in order), 50 a page" in page
    assert 'aria-current="page" href="?authorships-page=2">51–100' in page


def test_a_row_on_the_second_page_moves_to_first_place_and_the_others_keep_their_order(
    editor_client, long_paper
):
    url = change_url(long_paper) + "?authorships-page=2"
    data = change_form_data(editor_client.get(url))
    data["authorships-4-position"] = "1"  # "Author 55"
    assert editor_client.post(url, data).status_code == 302
    names = [name for _, name in authors(long_paper)]
    assert names[:3] == ["Author 55", "Author 1", "Author 2"]
    assert names[54:56] == ["Author 54", "Author 56"]
    assert [position for position, _ in authors(long_paper)] == list(range(1, 251))


def test_the_change_page_of_a_paper_runs_the_same_queries_for_20_or_250_authors(editor_client):
    """The author inline reads one page of rows, with their members, in one query."""
    members = [make_person(name=f"Member {n}") for n in range(30)]
    few = make_publication(authors=[members[0], *[f"A{n}" for n in range(19)]])
    many = make_publication(authors=[*members, *[f"B{n}" for n in range(220)]])
    assert count_queries(editor_client, change_url(few)) == count_queries(
        editor_client, change_url(many)
    )
    assert Authorship.objects.filter(publication=many).count() == 250
