"""A member's new name or alias links the author rows already printed with it, and the editor
reads what moved; a removed alias unlinks nothing by itself, and the editor reads what stayed."""

import pytest
from django.contrib.auth.models import Group
from django.contrib.messages import get_messages
from django.urls import reverse

from publications.models import Authorship, Publication
from tests.admin_pages import change_form_data
from tests.factories import make_person, make_publication

pytestmark = pytest.mark.django_db


@pytest.fixture
def editor(client, django_user_model):
    login = django_user_model.objects.create_user("edith", password="pw", is_staff=True)
    login.groups.add(Group.objects.get(name="Editors"))
    client.force_login(login)
    return login


def save_person(client, person, **changes):
    url = reverse("admin:people_person_change", args=[person.pk])
    data = {**change_form_data(client.get(url)), **changes}
    response = client.post(url, data)
    assert response.status_code == 302, response.context and response.context["errors"]
    return [str(message) for message in get_messages(response.wsgi_request)]


def test_an_added_alias_links_the_rows_printed_with_it_and_says_how_many(client, editor):
    ada = make_person(name="Ada Lovelace", slug="ada")
    papers = [make_publication(authors=["A. Lovelace", "Charles Babbage"]) for _ in range(3)]
    said = save_person(client, ada, aliases="A. Lovelace")
    assert set(Publication.objects.authored_by(ada)) == set(papers)
    assert "3 author rows of “A. Lovelace” now link to Ada Lovelace." in said
    assert not Authorship.objects.filter(name="Charles Babbage").exclude(researcher=None).exists()


def test_a_new_name_links_its_rows_too(client, editor):
    ada = make_person(name="Ada Byron", slug="ada")
    paper = make_publication(authors=["Ada Lovelace"])
    said = save_person(client, ada, name="Ada Lovelace")
    assert Publication.objects.authored_by(ada).get() == paper
    assert "1 author row of “Ada Lovelace” now links to Ada Lovelace." in said


def test_a_row_taken_off_the_member_is_not_linked_by_a_new_alias(client, editor):
    ada = make_person(name="Ada Lovelace", slug="ada")
    declined = make_publication(authors=["A. Lovelace"])
    declined.authorships.update(link_declined=True)
    other = make_publication(authors=["A. Lovelace"])
    said = save_person(client, ada, aliases="A. Lovelace")
    assert Publication.objects.authored_by(ada).get() == other
    assert "1 author row of “A. Lovelace” now links to Ada Lovelace." in said


def test_a_name_another_member_goes_by_links_nothing_and_says_so(client, editor):
    wei = make_person(name="Wei Zhang", slug="wei")
    make_person(name="Wei Li", slug="wei-li")
    make_publication(authors=["Wei Li"])
    said = save_person(client, wei, name="Wei Li")
    assert not Publication.objects.authored_by(wei).exists()
    assert "1 author row of “Wei Li” stays unlinked: others go by that name too. " in " ".join(said)


def test_a_removed_alias_leaves_its_rows_linked_and_says_which(client, editor):
    ada = make_person(name="Ada Lovelace", slug="ada", aliases="A. Lovelace")
    paper = make_publication(authors=[ada])
    paper.authorships.update(name="A. Lovelace")
    said = save_person(client, ada, aliases="")
    assert Publication.objects.authored_by(ada).get() == paper
    assert any(
        sentence.startswith("1 author row of “A. Lovelace” stays linked to Ada Lovelace")
        for sentence in said
    )


def test_the_link_made_by_an_alias_is_in_the_rows_history(client, editor):
    ada = make_person(name="Ada Lovelace", slug="ada")
    paper = make_publication(authors=["A. Lovelace"])
    save_person(client, ada, aliases="A. Lovelace")
    latest = paper.authorships.get().history.first()
    assert latest.history_change_reason == "Linked to Ada Lovelace by the name “A. Lovelace”"
    assert latest.history_user == editor
