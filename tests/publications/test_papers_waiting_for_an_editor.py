"""Members' papers waiting for an editor: the index lists the first ones and says how many wait
in all, and the publication list's "review" filter shows every one of them, for editors."""

import pytest
from django.contrib.auth.models import Group
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from base.scoped_admin import WAITING_LISTED
from publications.models import Publication
from tests.factories import make_person

pytestmark = pytest.mark.django_db


@pytest.fixture
def ada(django_user_model):
    """A member's login."""
    login = django_user_model.objects.create_user("ada", password="pw", is_staff=True)
    login.groups.add(Group.objects.get(name="Member logins"))
    make_person(name="Ada Lovelace", slug="ada", user=login)
    return login


def add_papers(count: int, *, by, is_published: bool = False, start: int = 0) -> None:
    """Papers whose first version was saved by `by`, as the admin records one."""
    for number in range(start, start + count):
        paper = Publication(
            title=f"Waiting {number}",
            slug=f"waiting-{number}",
            year=2026,
            is_published=is_published,
        )
        paper._history_user = by
        paper.save()


def test_the_index_says_how_many_wait_and_links_to_every_one(editor_client, editor, ada):
    add_papers(WAITING_LISTED + 3, by=ada)
    add_papers(1, by=ada, is_published=True, start=100)  # published by an editor since
    add_papers(1, by=editor, start=200)  # an editor's own draft waits for nobody

    index = editor_client.get(reverse("admin:index")).content.decode()

    assert f"Waiting for an editor ({WAITING_LISTED + 3})" in index
    assert index.count("A paper to publish, from Ada Lovelace") == WAITING_LISTED
    every_one = reverse("admin:publications_publication_changelist") + "?waiting=editor"
    assert f'<a href="{every_one}">3 more papers to publish</a>' in index
    listing = editor_client.get(every_one)
    assert {paper.title for paper in listing.context["cl"].result_list} == {
        f"Waiting {number}" for number in range(WAITING_LISTED + 3)
    }


def test_a_short_list_has_no_link_to_more(editor_client, ada):
    add_papers(2, by=ada)
    index = editor_client.get(reverse("admin:index")).content.decode()
    assert "Waiting for an editor (2)" in index
    assert "more paper" not in index


def test_the_index_runs_the_same_queries_for_a_few_or_many_waiting_papers(
    editor_client, ada, django_assert_num_queries
):
    """The waiting list is read in one query however long it is (the member's name comes with
    each paper, not one query per paper)."""
    add_papers(WAITING_LISTED + 1, by=ada)
    editor_client.get(reverse("admin:index"))  # sessions and content types warmed
    with CaptureQueriesContext(connection) as few:
        editor_client.get(reverse("admin:index"))
    add_papers(40, by=ada, start=100)
    with django_assert_num_queries(len(few)):
        editor_client.get(reverse("admin:index"))


def test_members_are_not_offered_the_review_filter(client, ada):
    add_papers(1, by=ada)
    client.force_login(ada)
    listing = client.get(reverse("admin:publications_publication_changelist"))
    assert listing.status_code == 200
    assert "Waiting for an editor" not in listing.content.decode()
