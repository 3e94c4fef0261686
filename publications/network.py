"""Who wrote papers with whom: the co-author network of a set of publications (a profile's, a
group's, an area's, the lab's), counted in the database and bounded whatever is stored.

`coauthor_pairs` is the one place that reads author rows for it: the people are the published
members linked to author rows (`Authorship.person`).
"""

from dataclasses import dataclass

from django.db import models
from django.urls import reverse

from directory.networks import Edge, NetworkDrawing, Node, draw_network
from people.models import Person
from publications.models import Authorship, Publication

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


def in_scope(publications: models.QuerySet[Publication]) -> models.Exists:
    """An author row's paper is among `publications`: looked up per member's row (a few
    thousand), where `publication IN (every paper in scope)` had SQLite cross the list of
    members with the list of papers (20 x 200,000 index searches)."""
    return models.Exists(publications.filter(pk=models.OuterRef("publication")))


def coauthor_pairs(
    publications: models.QuerySet[Publication], people: list[int]
) -> list[Edge[int]]:
    """How many of `publications` each two of `people` (member ids) wrote together, strongest
    first, at most MOST_PAIRS. One aggregate query: the author rows joined to the other author
    rows of the same paper, grouped by the two members, each pair once (lower id first)."""
    rows = (
        Authorship.objects.filter(
            in_scope(publications),
            person__in=people,
            # In one filter(): both conditions are on the same other author row.
            publication__authorships__person__in=people,
            publication__authorships__person__gt=models.F("person"),
        )
        .order_by()
        .values_list("person", "publication__authorships__person")
        .annotate(weight=models.Count("publication", distinct=True))
        .order_by("-weight", "person", "publication__authorships__person")[:MOST_PAIRS]
    )
    return [Edge(source, target, weight) for source, target, weight in rows]


def coauthor_network(publications: models.QuerySet[Publication]) -> CoauthorNetwork:
    """The published members who wrote `publications` (the MOST_PEOPLE with most of them) and
    the pairs among them. Two queries, whatever the number of papers."""
    members = (
        Authorship.objects.filter(
            in_scope(publications), person__in=Person.objects.published().values("pk")
        )
        .order_by()
        .values_list("person", "person__name", "person__slug")
        .annotate(papers=models.Count("publication", distinct=True))
        .order_by("-papers", "person__name", "person")
    )
    rows = list(members[: MOST_PEOPLE + 1])
    # One more than drawn says whether any were left out; the exact count would cost a query.
    shown = rows[:MOST_PEOPLE]
    people = [Node(pk, name, papers) for pk, name, _slug, papers in shown]
    pairs = coauthor_pairs(publications, [node.key for node in people]) if len(people) > 1 else []
    return CoauthorNetwork(
        people=people,
        pairs=pairs,
        slugs={pk: slug for pk, _name, slug, _papers in shown},
        more_left_out=len(rows) > MOST_PEOPLE,
    )
