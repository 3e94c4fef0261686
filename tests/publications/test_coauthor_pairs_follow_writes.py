"""The co-author pair rows the network counts are kept by every write of papers and authors,
bulk ones included: after each, they are the rows made from scratch from the author rows."""

import pytest

from publications.models import Authorship, CoauthorPair, Publication, pairs_of_papers
from tests.factories import make_person, make_publication

pytestmark = pytest.mark.django_db


def kept_pairs() -> set[tuple[int, int, int, int]]:
    return set(CoauthorPair.objects.values_list("publication", "year", "person", "partner"))


def pairs_made_from_scratch() -> set[tuple[int, int, int, int]]:
    rows = (
        Authorship.objects.filter(publication__is_published=True, researcher__profile__isnull=False)
        .order_by("publication")
        .values_list("publication", "publication__year", "researcher")
    )
    return set(pairs_of_papers(rows))


@pytest.fixture
def members():
    return [make_person(name=name) for name in ["Ada", "Grace", "Alan"]]


def test_a_paper_saved_with_its_authors_has_one_row_per_pair_and_one_per_member(members):
    ada, grace, alan = members
    paper = make_publication(authors=[ada, "Someone Outside", grace, alan], year=2021)
    assert kept_pairs() == {
        (paper.pk, 2021, low.pk, high.pk)
        for low, high in [(ada, ada), (grace, grace), (alan, alan)]
        + [(ada, grace), (ada, alan), (grace, alan)]
    }


def test_drafts_have_no_pairs_until_published(members):
    paper = make_publication(authors=members[:2], is_published=False)
    assert kept_pairs() == set()
    paper.is_published = True
    paper.save()
    assert kept_pairs() == pairs_made_from_scratch() != set()


def test_every_kind_of_write_leaves_the_rows_made_from_scratch(members):
    ada, grace, alan = members
    first = make_publication(authors=[ada, grace], year=2020)
    second = make_publication(authors=[grace, "Outside"], year=2022)
    writes = [
        # Undoing a split re-points author rows in bulk (people/services.py).
        lambda: Authorship.objects.filter(researcher=grace).update(researcher=alan),
        lambda: Authorship.objects.filter(publication=second, researcher=None).update(
            researcher=ada
        ),
        lambda: Publication.objects.filter(pk=first.pk).update(year=2019),
        lambda: Publication.objects.filter(pk=second.pk).update(is_published=False),
        lambda: Publication.objects.update(is_published=True),
        lambda: Authorship.objects.bulk_create(
            [Authorship(publication=first, position=9, name="Grace", person=grace)]
        ),
        lambda: Authorship.objects.bulk_update(
            [repointed(Authorship.objects.get(publication=first, position=9), ada)], ["researcher"]
        ),
        lambda: Authorship.objects.filter(publication=first, position=1).delete(),
        lambda: Authorship.objects.get(publication=second, position=2).delete(),
        lambda: first.delete(),
    ]
    for number, write in enumerate(writes):
        write()
        assert kept_pairs() == pairs_made_from_scratch(), f"after write {number}"


def repointed(row: Authorship, person) -> Authorship:
    row.person = person
    return row


def test_rebuilding_makes_the_same_rows(members):
    ada, grace, alan = members
    make_publication(authors=[ada, grace, alan], year=2018)
    make_publication(authors=[alan, ada], year=2025)
    kept = kept_pairs()
    assert CoauthorPair.objects.rebuild() == len(kept)
    assert kept_pairs() == kept == pairs_made_from_scratch()
