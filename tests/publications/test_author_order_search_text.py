"""A paper's stored search text and citation key follow the order staff give its authors in
the admin, including the rows of other pages of a long list, which the ordered inline moves
with UPDATEs that send no signal (base/ordered_admin.py)."""

import pytest
from django.urls import reverse

from publications.citation_keys import base_citation_key
from publications.search import search_text_of
from tests.admin_pages import change_form_data
from tests.factories import make_publication

pytestmark = pytest.mark.django_db


def test_moving_an_author_of_a_long_list_to_another_page_refreshes_the_search_text(
    editor_client,
):
    paper = make_publication(
        title="Many Hands", year=2024, authors=[f"Author {chr(65 + n % 26)}{n}" for n in range(120)]
    )
    url = reverse("admin:publications_publication_change", args=[paper.pk]) + "?authorships-page=2"
    data = change_form_data(editor_client.get(url))
    data["authorships-4-position"] = "1"  # the 55th author moves to the first page
    assert editor_client.post(url, data).status_code == 302

    paper.refresh_from_db()
    names = list(paper.authorships.order_by("position").values_list("name", flat=True))
    assert names[0] == "Author C54"
    assert paper.search_text == search_text_of(title="Many Hands", authors=names)
    assert paper.citation_key == base_citation_key(
        first_author="Author C54", year=2024, title="Many Hands"
    )
