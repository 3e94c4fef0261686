"""Detail pages: a fixed number of queries whatever the authors, and drafts shown to staff only."""

import pytest
from django.test import Client

from tests.factories import make_person

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "make_draft",
    [
        lambda: make_person(slug="draft", is_published=False),
    ],
    ids=["person"],
)
def test_drafts_are_a_404_for_visitors_and_a_marked_preview_for_staff(editor_client, make_draft):
    draft = make_draft()
    url = draft.get_absolute_url()
    assert Client().get(url).status_code == 404
    preview = editor_client.get(url)
    assert preview.status_code == 200
    assert "Only staff see this page" in preview.content.decode()
