"""The chart of publications per year (base/charts.py): which years are labelled."""

import itertools

from base.charts import year_chart


def labelled(counts: dict[int, int]) -> list[int]:
    chart = year_chart(counts, link=str)
    return [bar.year for bar in chart.bars if bar.show_label]


def test_the_first_and_last_years_are_labelled_whatever_the_span():
    for first in range(1990, 2026):
        years = labelled({first: 1, 2026: 3})
        assert years[0] == first and years[-1] == 2026, years


def test_no_two_labels_crowd_each_other_when_only_some_years_are_labelled():
    assert labelled({2017: 1, 2026: 1}) == [2017, 2020, 2022, 2024, 2026]  # ten years
    years = labelled({1987: 1, 2026: 1})  # forty years, every fifth labelled
    gaps = [later - earlier for earlier, later in itertools.pairwise(years)]
    assert min(gaps) >= 2, years
