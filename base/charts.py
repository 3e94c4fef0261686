"""A bar chart of counts per year, drawn on the server as SVG: no script, no library.

Bars are placed in percentages of the chart's width and text in pixels, so the chart fills any
screen while its labels stay readable on a phone. Each bar is a link (to that year's filter);
its name says the year and the count, for screen readers.
"""

from collections.abc import Callable
from dataclasses import dataclass

from django.utils.translation import gettext, ngettext

BAR_AREA = 96  # pixels for the tallest bar
TOP = 18  # room above a bar for its count
LABEL_ROOM = 22  # room under the bars for the years
MOST_YEARS = 40  # a longer history shows its latest years
MOST_LABELS = 8  # year labels under the bars, so they never run together on a phone
MOST_COUNTS = 24  # above this many bars, counts are left to the links' names
WIDEST_BAR = 6  # percent of the width, so a short history is not drawn as slabs


@dataclass(frozen=True)
class Bar:
    year: int
    count: int
    href: str
    selected: bool
    x: float  # percent of the width
    width: float  # percent of the width
    y: int
    height: int
    show_label: bool
    show_count: bool

    @property
    def middle(self) -> float:
        return self.x + self.width / 2

    @property
    def name(self) -> str:
        return ngettext(
            "%(year)s: %(count)s publication", "%(year)s: %(count)s publications", self.count
        ) % {"year": self.year, "count": self.count}


@dataclass(frozen=True)
class YearChart:
    bars: list[Bar]
    first: int
    last: int
    any_selected: bool
    left_out: int  # publications in the years before `first`, not drawn

    height: int = TOP + BAR_AREA + LABEL_ROOM
    baseline: int = TOP + BAR_AREA

    @property
    def summary(self) -> str:
        busiest = max(self.bars, key=lambda bar: (bar.count, bar.year))
        if self.first == self.last:
            text = gettext("%(bar)s.") % {"bar": busiest.name}
        else:
            text = gettext("%(first)s–%(last)s, the most in %(year)s (%(count)s).") % {
                "first": self.first,
                "last": self.last,
                "year": busiest.year,
                "count": busiest.count,
            }
        if self.left_out:
            text += ngettext(
                " %(count)s earlier one is not drawn.",
                " %(count)s earlier ones are not drawn.",
                self.left_out,
            ) % {"count": self.left_out}
        return text


def year_chart(
    counts: dict[int, int] | dict[int | None, int],
    *,
    link: Callable[[int], str],
    selected: Callable[[int], bool] = lambda year: False,
) -> YearChart | None:
    """Bars for every year from the first to the last with a count (empty years are gaps; the
    undated papers, counted under None, have no bar), or None when nothing is counted."""
    years = sorted(year for year, count in counts.items() if count and year is not None)
    if not years:
        return None
    last = years[-1]
    first = max(years[0], last - MOST_YEARS + 1)
    span = list(range(first, last + 1))
    tallest = max(counts[year] for year in years if year >= first)
    slot = 100 / len(span)
    label_every = -(-len(span) // MOST_LABELS)
    bars = []
    for index, year in enumerate(span):
        count = counts.get(year, 0)
        height = round(BAR_AREA * count / tallest) if count else 0
        width = min(slot * 0.7, WIDEST_BAR)
        bars.append(
            Bar(
                year=year,
                count=count,
                href=link(year) if count else "",
                selected=selected(year),
                x=round(index * slot + (slot - width) / 2, 3),
                width=round(width, 3),
                y=TOP + BAR_AREA - max(height, 2 if count else 0),
                height=max(height, 2 if count else 0),
                # Both ends always, and every label_every-th year back from the last one
                # where it does not crowd the first.
                show_label=index == 0
                or (len(span) - 1 - index) % label_every == 0
                and (index >= label_every or index == len(span) - 1),
                show_count=bool(count) and len(span) <= MOST_COUNTS,
            )
        )
    return YearChart(
        bars=bars,
        first=first,
        last=last,
        any_selected=any(bar.selected for bar in bars),
        left_out=sum(counts[year] for year in years if year < first),
    )
