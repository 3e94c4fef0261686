import pytest
from django.db import IntegrityError

from publications.models import Authorship, Publication
from tests.factories import make_person, make_publication, make_venue

pytestmark = pytest.mark.django_db


def test_two_authors_cannot_share_a_position():
    publication = make_publication(authors=["A"])
    with pytest.raises(IntegrityError):
        Authorship.objects.create(publication=publication, position=1, name="B")


def test_venue_short_names_are_unique_ignoring_case():
    make_venue(short_name="NSDI")
    with pytest.raises(IntegrityError):
        make_venue(short_name="nsdi")


def test_publications_list_newest_first_and_undated_last():
    undated = make_publication(title="Undated", year=None)
    old = make_publication(title="Old", year=2019)
    new = make_publication(title="New", year=2025)
    assert list(Publication.objects.all()) == [new, old, undated]


def test_for_listing_loads_authors_in_order_in_a_fixed_number_of_queries(
    django_assert_num_queries,
):
    member = make_person(name="Hang Zhu")
    for _ in range(5):
        make_publication(authors=["C", member, "A"], venue=make_venue())
    # publications with venues, authorships with people, awards, links
    with django_assert_num_queries(4):
        listed = list(Publication.objects.for_listing())
        names = [[a.name for a in p.authorships.all()] for p in listed]
        venues = [p.venue.short_name for p in listed]
        members = [a.person for p in listed for a in p.authorships.all() if a.person]
    assert names == [["C", "Hang Zhu", "A"]] * 5
    assert len(venues) == 5
    assert members == [member] * 5


def test_publication_url_uses_the_slug():
    assert make_publication(slug="netvrm").get_absolute_url() == "/publications/netvrm/"
