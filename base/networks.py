"""A network of people drawn on the server as SVG: no script, no library, the same picture for
the same data.

The layout is a circle: every name stays readable and no two dots overlap, whatever the data,
and the order around it is chosen greedily (each next person is the one most tied to the last
one placed), so that close collaborators sit side by side and few lines cross. Ties are broken
by name and id, so the order, and with it the picture, depends on the data alone. With a
`centre` (a profile's own person), that person is drawn in the middle.

The picture is an image (role="img" in the template) with a table beside it listing every
line, which is what a screen reader reads.
"""

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from django.utils.translation import gettext, ngettext

K = TypeVar("K", bound=Hashable)

WIDTH = 640
HEIGHT = 520
RADIUS = 185  # of the circle the dots sit on; the rest of the width is for their names
LABEL_GAP = 10  # between a dot and its name
SMALLEST_DOT = 4.0
LARGEST_DOT = 13.0
THINNEST_LINE = 1.0
THICKEST_LINE = 7.0


@dataclass(frozen=True)
class Node(Generic[K]):
    key: K
    name: str
    weight: int  # papers in the network's scope


@dataclass(frozen=True)
class Edge(Generic[K]):
    source: K
    target: K
    weight: int  # papers the two wrote together


@dataclass(frozen=True)
class PlacedNode:
    name: str
    weight: int
    x: float
    y: float
    radius: float
    label_x: float
    label_y: float
    anchor: str  # the name's text-anchor: start, middle or end


@dataclass(frozen=True)
class PlacedEdge:
    source: PlacedNode
    target: PlacedNode
    weight: int
    width: float


@dataclass(frozen=True)
class NetworkDrawing:
    nodes: list[PlacedNode]
    edges: list[PlacedEdge]
    width: int = WIDTH
    height: int = HEIGHT

    @property
    def summary(self) -> str:
        """Written when shown, in the page's language: the drawing itself is kept for both."""
        people = ngettext("%(count)s person", "%(count)s people", len(self.nodes)) % {
            "count": len(self.nodes)
        }
        pairs = ngettext("%(count)s pair", "%(count)s pairs", len(self.edges)) % {
            "count": len(self.edges)
        }
        return gettext("%(people)s and %(pairs)s who wrote papers together.") % {
            "people": people,
            "pairs": pairs,
        }


def circle_order(nodes: Sequence[Node[K]], edges: Sequence[Edge[K]]) -> list[Node[K]]:
    """The nodes in the order they go round the circle: the heaviest first, then each time the
    one with most joint papers with the node placed last (else the heaviest left)."""
    ties: dict[tuple[K, K], int] = {}
    for edge in edges:
        ties[edge.source, edge.target] = ties[edge.target, edge.source] = edge.weight
    # Name and position in `nodes` break ties: the caller gives them in a stable order.
    rank = {node.key: index for index, node in enumerate(nodes)}
    left = sorted(nodes, key=lambda node: (-node.weight, node.name, rank[node.key]))
    order: list[Node[K]] = []
    while left:
        if order:
            last = order[-1].key
            # max() keeps the first of equals: the heaviest, then by name.
            chosen = max(left, key=lambda node: ties.get((last, node.key), 0))
        else:
            chosen = left[0]
        left.remove(chosen)
        order.append(chosen)
    return order


def draw_network(
    nodes: Sequence[Node[K]], edges: Sequence[Edge[K]], *, centre: K | None = None
) -> NetworkDrawing | None:
    """Where each node and line goes, or None when there is no one to draw. `edges` between
    keys not among `nodes` are left out."""
    if not nodes:
        return None
    heaviest = max(node.weight for node in nodes) or 1
    strongest = max((edge.weight for edge in edges), default=1) or 1
    middle_x, middle_y = WIDTH / 2, HEIGHT / 2

    def dot(weight: int) -> float:
        return round(SMALLEST_DOT + (LARGEST_DOT - SMALLEST_DOT) * math.sqrt(weight / heaviest), 1)

    placed: dict[K, PlacedNode] = {}
    in_middle = [node for node in nodes if node.key == centre]
    for node in in_middle:
        size = dot(node.weight)
        placed[node.key] = PlacedNode(
            node.name,
            node.weight,
            middle_x,
            middle_y,
            size,
            middle_x,
            middle_y - size - 6,
            "middle",
        )
    around = circle_order([node for node in nodes if node.key != centre], edges)
    for index, node in enumerate(around):
        # From the top, clockwise; one node alone sits at the top.
        angle = -math.pi / 2 + 2 * math.pi * index / len(around)
        cos, sin = math.cos(angle), math.sin(angle)
        size = dot(node.weight)
        anchor = "start" if cos > 0.2 else "end" if cos < -0.2 else "middle"
        label_distance = RADIUS + size + LABEL_GAP
        label_y = middle_y + sin * label_distance + (4 if anchor != "middle" else 12 * sin + 4)
        placed[node.key] = PlacedNode(
            node.name,
            node.weight,
            round(middle_x + cos * RADIUS, 1),
            round(middle_y + sin * RADIUS, 1),
            size,
            round(middle_x + cos * label_distance, 1),
            round(label_y, 1),
            anchor,
        )
    lines = [
        PlacedEdge(
            placed[edge.source],
            placed[edge.target],
            edge.weight,
            round(THINNEST_LINE + (THICKEST_LINE - THINNEST_LINE) * edge.weight / strongest, 1),
        )
        for edge in edges
        if edge.source in placed and edge.target in placed
    ]
    # Thin lines first, so the strong ones are drawn on top of them.
    lines.sort(key=lambda line: (line.weight, line.source.name, line.target.name))
    return NetworkDrawing(nodes=[placed[node.key] for node in [*in_middle, *around]], edges=lines)
