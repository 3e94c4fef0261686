"""A profile's selection (pages.views.people.selection) is read from the member's newest years
and their featured papers only, not by sorting all of their papers: it must still be exactly the
first papers of the profile's order (featured first, then newest, then by title), whatever
their years, ties and undated papers."""

import random

import pytest
from django.db.models import F

from pages.views.people import PROFILE_SELECTED, selection
from publications.models import Publication
from tests.factories import make_person, make_publication

pytestmark = pytest.mark.django_db


def first_in_profile_order(person) -> list[int]:
    ordered = (
        Publication.objects.published()
        .authored_by(person)
        .order_by("-is_featured", F("year").desc(nulls_last=True), "title")
    )
    return list(ordered.values_list("pk", flat=True)[:PROFILE_SELECTED])


@pytest.mark.parametrize("papers", [0, 3, PROFILE_SELECTED, 25])
def test_the_selection_is_the_first_papers_of_the_profiles_order(papers):
    rng = random.Random(papers)
    member = make_person(name="Hang Zhu")
    other = make_person(name="Ada Lovelace")
    for number in range(papers):
        make_publication(
            title=rng.choice(["Alpha", "Beta", "Gamma"]) + f" {rng.randrange(100)}",
            year=rng.choice([2019, 2020, 2020, 2021, None]),
            is_featured=rng.random() < 0.15,
            is_published=rng.random() < 0.9,
            authors=[member, "Someone Outside"] if number % 4 else [other, member],
        )
    # Another member's newer and featured papers never enter it.
    make_publication(title="Other", year=2030, is_featured=True, authors=[other])
    selected, featured = selection(member.pk)
    expected = first_in_profile_order(member)
    assert [row.pk for row in selected] == expected
    assert featured == Publication.objects.filter(pk__in=expected[:1], is_featured=True).exists()
