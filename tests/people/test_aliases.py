"""An alias says an author printed so is this person: one another person goes by is refused,
naming them, and one a member adds links nothing until an editor accepts it."""

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from publications.models import Publication
from tests.admin_forms import post_person
from tests.admin_pages import change_form_data
from tests.department import make_external
from tests.factories import make_person, make_publication, make_staff_login

pytestmark = pytest.mark.django_db


@pytest.fixture
def ada(client):
    """Ada, signed in as the member she is."""
    login = make_staff_login("ada", role="Member logins")
    client.force_login(login)
    return make_person(name="Ada Lovelace", slug="ada", user=login)


def alias_errors(response) -> str:
    assert response.status_code == 200
    return str(response.context["adminform"].form.errors.get("aliases"))


def test_a_member_adding_a_colleagues_name_or_alias_as_theirs_is_refused_naming_them(client, ada):
    make_person(name="Hang Zhu", slug="hang-zhu", aliases="H. Zhu")
    colleague = alias_errors(post_person(client, ada, aliases="HANG ZHU"))
    assert "“HANG ZHU” is already the name of Hang Zhu, member at /people/hang-zhu/" in colleague
    assert "already an alias of Hang Zhu" in alias_errors(post_person(client, ada, aliases="h zhu"))
    ada.refresh_from_db()
    assert (ada.aliases, ada.pending_aliases) == ("", "")


def test_an_editor_adding_an_external_persons_name_as_an_alias_is_refused_too(editor_client):
    make_external(name="Matei Zaharia", affiliation="UC Berkeley")
    hang = make_person(name="Hang Zhu", slug="hang-zhu")
    errors = alias_errors(post_person(editor_client, hang, aliases="Matéi Zaharia"))
    assert "is already the name of Matei Zaharia (UC Berkeley), external person" in errors
    record = make_external(name="Xin Jin")
    change = reverse("admin:people_externalperson_change", args=[record.pk])
    data = change_form_data(editor_client.get(change)) | {"aliases": "Hang Zhu"}
    response = editor_client.post(change, data)
    assert "already the name of Hang Zhu, member" in alias_errors(response)


def test_an_alias_a_member_adds_links_nothing_until_an_editor_accepts_it(client, ada, editor):
    paper = make_publication(authors=["A. Lovelace"])
    response = post_person(client, ada, aliases="A. Lovelace")
    assert response.status_code == 302
    messages = [str(message) for message in get_messages(response.wsgi_request)]
    assert "Your new alias “A. Lovelace” waits for an editor" in messages[0]
    ada.refresh_from_db()
    assert (ada.aliases, ada.pending_aliases) == ("", "A. Lovelace")

    client.force_login(editor)
    change = reverse("admin:publications_publication_change", args=[paper.pk])
    assert client.post(change, change_form_data(client.get(change))).status_code == 302
    assert not Publication.objects.authored_by(ada).exists()
    index = client.get(reverse("admin:index")).content.decode()
    assert "Ada Lovelace: A. Lovelace" in index and "Aliases to accept" in index

    accepted = post_person(client, ada, pending_aliases="A. Lovelace", accept_pending_aliases="on")
    assert accepted.status_code == 302
    ada.refresh_from_db()
    assert (ada.aliases, ada.pending_aliases) == ("A. Lovelace", "")
    assert client.post(change, change_form_data(client.get(change))).status_code == 302
    assert Publication.objects.authored_by(ada).get() == paper
    # An editor's own alias takes effect at once.
    assert post_person(client, ada, aliases="A. Lovelace\nAugusta Ada King").status_code == 302
    ada.refresh_from_db()
    assert ada.alias_list == ["A. Lovelace", "Augusta Ada King"]


def test_accepting_an_alias_someone_else_took_meanwhile_is_refused_naming_them(client, ada, editor):
    assert post_person(client, ada, aliases="A. L.").status_code == 302
    make_external(name="A. L.", affiliation="Elsewhere")
    client.force_login(editor)
    ada.refresh_from_db()
    response = post_person(client, ada, pending_aliases="A. L.", accept_pending_aliases="on")
    assert response.status_code == 200
    errors = str(response.context["adminform"].form.errors["pending_aliases"])
    assert "“A. L.” is already the name of A. L. (Elsewhere), external person" in errors
    ada.refresh_from_db()
    assert (ada.aliases, ada.pending_aliases) == ("", "A. L.")
