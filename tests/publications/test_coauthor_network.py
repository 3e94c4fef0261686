"""The co-author network: who wrote with whom, counted by the database, bounded, and drawn the
same way each time for the same data."""

import pytest

from base.networks import Edge, Node, draw_network
from publications.models import CoauthorPair
from publications.network import (
    MOST_PAIRS,
    MOST_PEOPLE,
    coauthor_network,
    pair_counts,
    strongest_pairs,
)
from tests.factories import make_person, make_publication

pytestmark = pytest.mark.django_db


def names(network, edges):
    by_key = {node.key: node.name for node in network.people}
    return {(by_key[edge.source], by_key[edge.target], edge.weight) for edge in edges}


def test_pairs_count_the_papers_two_members_wrote_together():
    ada, grace, alan = (make_person(name=name) for name in ["Ada", "Grace", "Alan"])
    make_publication(authors=[ada, grace, "Someone Outside"])
    make_publication(authors=[grace, ada])
    make_publication(authors=[ada, alan, grace])
    make_publication(authors=[alan])

    network = coauthor_network(CoauthorPair.objects.all())

    assert [(node.name, node.weight) for node in network.people] == [
        ("Ada", 3),
        ("Grace", 3),
        ("Alan", 2),
    ]
    assert names(network, network.pairs) == {
        ("Ada", "Grace", 3),
        ("Ada", "Alan", 1),
        ("Grace", "Alan", 1),
    }


def test_pairs_leave_out_drafts_unpublished_members_and_papers_outside_the_scope():
    ada, grace = make_person(name="Ada"), make_person(name="Grace")
    hidden = make_person(name="Hidden", is_published=False)
    make_publication(authors=[ada, grace], year=2020)
    make_publication(authors=[ada, grace], year=2024)
    make_publication(authors=[ada, grace], is_published=False)
    make_publication(authors=[ada, hidden])

    all_years = coauthor_network(CoauthorPair.objects.all())
    assert [node.name for node in all_years.people] == ["Ada", "Grace"]
    assert [edge.weight for edge in all_years.pairs] == [2]

    in_2024 = coauthor_network(CoauthorPair.objects.in_years(2021, None))
    assert [edge.weight for edge in in_2024.pairs] == [1]


def test_the_network_keeps_the_most_prolific_members_and_the_strongest_pairs():
    members = [make_person(name=f"Member {number:02}") for number in range(MOST_PEOPLE + 5)]
    # Member 00 wrote the most, each later member fewer; every paper is by two neighbours.
    for index, member in enumerate(members):
        for _ in range(1 + (len(members) - index) // 10):
            make_publication(authors=[member, members[(index + 1) % len(members)]])

    network = coauthor_network(CoauthorPair.objects.all())

    assert len(network.people) == MOST_PEOPLE
    assert network.more_left_out
    kept = {node.key for node in network.people}
    assert members[0].pk in kept and members[-1].pk not in kept
    assert all(edge.source in kept and edge.target in kept for edge in network.pairs)
    assert (
        len(strongest_pairs(pair_counts(CoauthorPair.objects.all()), [m.pk for m in members]))
        <= MOST_PAIRS
    )


def test_the_pair_query_is_one_query_whatever_the_number_of_papers(django_assert_num_queries):
    ada, grace, alan = (make_person(name=name) for name in ["Ada", "Grace", "Alan"])
    for number in range(30):
        make_publication(authors=[ada, grace, alan][: 2 + number % 2])
    with django_assert_num_queries(2):
        network = coauthor_network(CoauthorPair.objects.all())
    assert [edge.weight for edge in network.pairs] == [30, 15, 15]


def test_the_same_data_gives_the_same_picture_whatever_order_it_comes_in():
    people = [
        Node(key, name, weight)
        for key, name, weight in [(1, "Ada", 5), (2, "Grace", 3), (3, "Alan", 3), (4, "Edsger", 1)]
    ]
    pairs = [Edge(1, 2, 3), Edge(1, 3, 1), Edge(2, 4, 1)]

    first = draw_network(people, pairs)
    again = draw_network(list(reversed(people)), list(reversed(pairs)))

    assert first == again
    assert first is not None
    # Every dot on the circle, none on another.
    spots = {(node.x, node.y) for node in first.nodes}
    assert len(spots) == len(people)
    # The strongest line is the thickest and drawn last, on top of the others.
    assert first.edges[-1].weight == 3
    assert first.edges[-1].width > first.edges[0].width


def test_a_profiles_person_is_drawn_in_the_middle():
    people = [Node(1, "Ada", 5), Node(2, "Grace", 3), Node(3, "Alan", 2)]
    drawing = draw_network(people, [Edge(1, 2, 2), Edge(1, 3, 1)], centre=1)
    assert drawing is not None
    ada = next(node for node in drawing.nodes if node.name == "Ada")
    assert (ada.x, ada.y) == (drawing.width / 2, drawing.height / 2)


def test_nothing_is_drawn_without_people():
    assert draw_network([], []) is None
