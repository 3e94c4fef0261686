"""A list of aliases is a few spellings of a name: thousands of lines are refused at save, with
a message, instead of failing the save (linking asks the database for every alias)."""

import pytest
from django.urls import reverse

from people.models import MAX_ALIASES, ExternalPerson
from tests.admin_pages import change_form_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def save_aliases(editor_client):
    """Post an external person's change page with these aliases; the response and the row."""
    outsider = ExternalPerson.objects.create(name="Plain Outsider", slug="plain-outsider")
    url = reverse("admin:people_externalperson_change", args=[outsider.pk])

    def save(aliases: str):
        data = change_form_data(editor_client.get(url))
        response = editor_client.post(url, data | {"aliases": aliases})
        outsider.refresh_from_db()
        return response, outsider

    return save


def test_thousands_of_aliases_are_refused_with_a_message(save_aliases):
    response, outsider = save_aliases("\n".join(f"Name {number}" for number in range(5000)))
    assert response.status_code == 200
    assert f"At most {MAX_ALIASES} aliases" in str(response.context["errors"])
    assert outsider.aliases == ""


def test_a_few_aliases_are_kept(save_aliases):
    response, outsider = save_aliases("P. Outsider\nOutsider, P.")
    assert response.status_code == 302
    assert outsider.alias_list == ["P. Outsider", "Outsider, P."]


def test_an_alias_of_invisible_characters_only_is_refused_like_a_name(save_aliases):
    """Found by the hostile-input suite: a name must show a letter, and an alias is a name."""
    response, outsider = save_aliases("P. Outsider\n\u200b\u200d\u00ad")
    assert response.status_code == 200
    assert "Alias 2: Write the name in letters" in str(response.context["errors"])
    assert outsider.aliases == ""
