import pytest

from publications.models import Authorship
from publications.services import link_authors, member_name_index
from tests.factories import make_person, make_publication

pytestmark = pytest.mark.django_db


def test_authors_are_linked_by_exact_name_or_alias_only():
    hao = make_person(name="Hao Zhang")
    hang = make_person(name="Hang Zhu", aliases="H. Zhu")
    publication = make_publication(
        authors=["Zhang Zhang", "Wang Zhang", "Haoran Zhang", "Hao Zhang", "H. Zhu", "Hang  Zhu*"]
    )
    link_authors(publication.authorships.all())
    linked = dict(
        Authorship.objects.filter(publication=publication).values_list(
            "name", "researcher__profile"
        )
    )
    assert linked == {
        "Zhang Zhang": None,
        "Wang Zhang": None,
        "Haoran Zhang": None,
        "Hao Zhang": hao.pk,
        "H. Zhu": hang.pk,
        "Hang  Zhu*": hang.pk,
    }


def test_a_name_two_members_share_links_to_neither():
    make_person(name="Wei Li")
    make_person(name="Wei Li", slug="wei-li-2")
    assert "wei li" not in member_name_index()


def test_an_author_already_linked_is_left_alone():
    hang = make_person(name="Hang Zhu")
    other = make_person(name="Someone Else")
    publication = make_publication(authors=[other])
    authorship = publication.authorships.get()
    authorship.name = "Hang Zhu"
    authorship.save()
    assert link_authors(publication.authorships.all()) == []
    authorship.refresh_from_db()
    assert authorship.person == other != hang
