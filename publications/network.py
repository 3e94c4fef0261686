"""Who wrote papers with whom: the co-author network of a set of publications (a profile's, a
group's, an area's, the lab's), counted in the database and bounded whatever is stored.

It counts the co-author pair rows (`publications.models.CoauthorPair`, one a paper and pair of
its members, kept as papers and authors are written), not the author rows: the people are the
published members linked to author rows (`Authorship.researcher` with a profile).
"""

from dataclasses import dataclass

from django.db import models
from django.urls import reverse

from base.networks import Edge, NetworkDrawing, Node, draw_network
from people.models import Person
from publications.models import CoauthorPair

# The people drawn: the most prolific in the scope. A circle of 30 names stays readable, and
# the pair query reads the author rows of these people only.
MOST_PEOPLE = 30
# The lines drawn and listed in the table: the strongest.
MOST_PAIRS = 120


@dataclass(frozen=True)
class NetworkRow:
    name: str
    url: str
    papers: int
    coauthors: list[tuple[str, str, int]]  # name, profile address, joint papers


@dataclass(frozen=True)
class CoauthorNetwork:
    people: list[Node[int]]
    pairs: list[Edge[int]]
    slugs: dict[int, str]
    more_left_out: bool  # more members wrote these papers than are drawn

    @property
    def rows(self) -> list["NetworkRow"]:
        """The picture read as a table: each person drawn, with their papers in the scope and
        the people drawn they wrote with (most joint papers first)."""
        partners: dict[int, list[tuple[int, int]]] = {node.key: [] for node in self.people}
        for pair in self.pairs:
            partners[pair.source].append((pair.target, pair.weight))
            partners[pair.target].append((pair.source, pair.weight))
        by_key = {node.key: node for node in self.people}
        order = {node.key: index for index, node in enumerate(self.people)}
        return [
            NetworkRow(
                name=node.name,
                url=self.url(node.key),
                papers=node.weight,
                coauthors=[
                    (by_key[key].name, self.url(key), weight)
                    for key, weight in sorted(
                        partners[node.key], key=lambda item: (-item[1], order[item[0]])
                    )
                ],
            )
            for node in self.people
        ]

    def url(self, key: int) -> str:
        return reverse("people:detail", args=[self.slugs[key]])

    def drawing(self, *, centre: int | None = None) -> NetworkDrawing | None:
        return draw_network(self.people, self.pairs, centre=centre)


def pair_counts(pairs: models.QuerySet[CoauthorPair]) -> dict[tuple[int, int], int]:
    """Papers among `pairs` for each pair of members who wrote together, (a, a) for a
    member's own papers. One aggregate query: a row is one paper of one pair, so counting rows
    counts papers. Grouped by the two people alone, which the index on (person, partner,
    paper) serves in order; a filter on the people as well would have SQLite walk every pair
    of the lab and test each row's paper (1.3 s for a member at 200,000 papers, not 0.1)."""
    rows = pairs.order_by().values_list("person", "partner").annotate(papers=models.Count("*"))
    return {(person, partner): papers for person, partner, papers in rows}


def strongest_pairs(counts: dict[tuple[int, int], int], people: list[int]) -> list[Edge[int]]:
    """The pairs among `people` (member ids), strongest first, at most MOST_PAIRS."""
    drawn = set(people)
    edges = [
        Edge(person, partner, papers)
        for (person, partner), papers in counts.items()
        if person != partner and person in drawn and partner in drawn
    ]
    edges.sort(key=lambda edge: (-edge.weight, edge.source, edge.target))
    return edges[:MOST_PAIRS]


def coauthor_network(pairs: models.QuerySet[CoauthorPair]) -> CoauthorNetwork:
    """The published members among `pairs` (the MOST_PEOPLE with most papers) and the pairs
    among them: `CoauthorPair.objects` narrowed by `of_papers`, `of_member` or `in_years`. Two
    queries, whatever the number of papers: the counts, then the names of the members in them."""
    counts = pair_counts(pairs)
    own = {person: papers for (person, partner), papers in counts.items() if person == partner}
    named = Person.objects.published().filter(pk__in=own).values_list("pk", "name", "slug")
    ranked = sorted(named, key=lambda row: (-own[row[0]], row[1], row[0]))
    shown = ranked[:MOST_PEOPLE]
    people = [Node(pk, name, own[pk]) for pk, name, _slug in shown]
    edges = strongest_pairs(counts, [node.key for node in people]) if len(people) > 1 else []
    return CoauthorNetwork(
        people=people,
        pairs=edges,
        slugs={pk: slug for pk, _name, slug in shown},
        more_left_out=len(ranked) > MOST_PEOPLE,
    )


def member_coauthors(person: int) -> list[Person]:
    """The published members who wrote papers with `person` (a member's id), each with the
    number of them (`shared`), most shared first: the pair rows naming `person` with another
    member, counted per other member (the indexes on each of the pair's people; counting every
    pair of their papers instead read 10 times as many rows). Two queries."""
    naming = CoauthorPair.objects.filter(models.Q(person=person) | models.Q(partner=person))
    rows = (
        naming.exclude(person=models.F("partner"))
        .order_by()
        .values_list("person", "partner")
        .annotate(papers=models.Count("*"))
    )
    shared = {(partner if mine == person else mine): papers for mine, partner, papers in rows}
    coauthors = list(Person.objects.published().filter(pk__in=shared))
    for coauthor in coauthors:
        coauthor.shared = shared[coauthor.pk]
    coauthors.sort(key=lambda coauthor: (-shared[coauthor.pk], coauthor.name))
    return coauthors
