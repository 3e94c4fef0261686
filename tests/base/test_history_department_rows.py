"""A person's department rows (memberships, advising, close collaborators) are edited on pages
of their own, not on the person's: reverting the person leaves them as they are, while
recovering a deleted person brings back those the deletion took with them."""

import pytest

from people.models import Advising, Collaboration, Membership, Person
from tests.base.test_history_versions import delete_and_recover, edit, revert
from tests.department import make_membership, make_research_group
from tests.factories import make_person

pytestmark = pytest.mark.django_db


def test_reverting_a_person_keeps_the_rows_added_on_other_pages_since(editor_client):
    ada, bob = make_person(name="Ada Lovelace"), make_person(name="Bob Student")
    edit(editor_client, ada, name="Ada Lovelace")  # a version, with its snapshot
    first = ada.history.latest()
    make_membership(ada, make_research_group())
    Advising.objects.create(advisee=bob, position=1, advisor=ada)
    Collaboration.objects.create(person=bob, position=1, collaborator=ada)
    edit(editor_client, ada, name="Ada King")

    assert revert(editor_client, Person, ada.pk, first).status_code == 302
    ada.refresh_from_db()
    assert ada.name == "Ada Lovelace"
    assert Membership.objects.filter(person=ada).count() == 1
    assert Advising.objects.filter(advisee=bob, advisor=ada).count() == 1
    assert Collaboration.objects.filter(person=bob, collaborator=ada).count() == 1


def test_a_recovered_person_gets_back_the_department_rows_deleted_with_them(editor_client):
    ada, bob = make_person(name="Ada Lovelace"), make_person(name="Bob Student")
    make_membership(ada, make_research_group())
    Advising.objects.create(advisee=bob, position=1, advisor=ada)
    restored = delete_and_recover(editor_client, ada)
    assert Membership.objects.filter(person=restored).count() == 1
    assert Advising.objects.filter(advisee=bob, advisor=restored).count() == 1
