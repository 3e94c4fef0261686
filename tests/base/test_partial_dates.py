import pytest
from django.core.exceptions import ValidationError

from base.partial_dates import (
    DatePrecision,
    PartialDate,
    PartialDateFormField,
    format_period,
)
from news.models import NewsItem
from tests.factories import make_news


@pytest.mark.parametrize(
    ("text", "expected", "precision", "shown"),
    [
        ("2026", PartialDate(2026), DatePrecision.YEAR, "2026"),
        ("2026-07", PartialDate(2026, 7), DatePrecision.MONTH, "Jul 2026"),
        ("Jul 2026", PartialDate(2026, 7), DatePrecision.MONTH, "Jul 2026"),
        ("september 2023", PartialDate(2023, 9), DatePrecision.MONTH, "Sep 2023"),
        ("Sept. 2023", PartialDate(2023, 9), DatePrecision.MONTH, "Sep 2023"),
        ("2026-07-25", PartialDate(2026, 7, 25), DatePrecision.DAY, "25 Jul 2026"),
        ("25 Jul 2026", PartialDate(2026, 7, 25), DatePrecision.DAY, "25 Jul 2026"),
        ("July 25, 2026", PartialDate(2026, 7, 25), DatePrecision.DAY, "25 Jul 2026"),
    ],
)
def test_parse_keeps_the_precision_given(text, expected, precision, shown):
    parsed = PartialDate.parse(text)
    assert parsed == expected
    assert parsed.precision == precision
    assert str(parsed) == shown


@pytest.mark.parametrize("text", ["", "abc", "26", "2026-13", "2026-02-30", "31 Foo 2026", "0999"])
def test_parse_refuses_what_is_not_a_date(text):
    with pytest.raises(ValueError, match="is not a date"):
        PartialDate.parse(text)


def test_a_year_is_never_shown_as_the_first_of_january():
    assert str(PartialDate(2026)) == "2026"
    assert PartialDate(2026).isoformat() == "2026"


def test_partial_dates_sort_in_date_order():
    dates = [PartialDate(2026, 7, 25), PartialDate(2025), PartialDate(2026), PartialDate(2026, 5)]
    assert sorted(dates) == [
        PartialDate(2025),
        PartialDate(2026),
        PartialDate(2026, 5),
        PartialDate(2026, 7, 25),
    ]


@pytest.mark.parametrize(
    ("start", "end", "ongoing", "shown"),
    [
        (PartialDate(2017), PartialDate(2022), False, "2017 – 2022"),
        (PartialDate(2023, 9), None, True, "Sep 2023 – Present"),
        (PartialDate(2025, 10), None, False, "Started Oct 2025"),
        (None, PartialDate(2022), False, "Until 2022"),
        (None, None, True, "Present"),
        (None, None, False, ""),
    ],
)
def test_periods_read_as_a_cv_prints_them(start, end, ongoing, shown):
    assert format_period(start, end, ongoing) == shown


def test_form_field_shows_a_stored_date_the_way_people_write_it():
    field = PartialDateFormField(required=False)
    assert field.prepare_value(PartialDate(2026, 7)) == "Jul 2026"
    assert field.clean("2026-07") == PartialDate(2026, 7)
    assert field.clean("") is None
    with pytest.raises(ValidationError, match="is not a date"):
        field.clean("last summer")


@pytest.mark.django_db
def test_model_field_round_trips_every_precision():
    for text in ["2026", "May 2026", "25 Jul 2026"]:
        item = make_news(date=PartialDate.parse(text))
        item.refresh_from_db()
        assert str(item.date) == text


@pytest.mark.django_db
def test_database_orders_news_by_date_across_precisions():
    make_news(title="year", date=PartialDate(2025))
    make_news(title="day", date=PartialDate(2026, 7, 25))
    make_news(title="month", date=PartialDate(2026, 5))
    assert list(NewsItem.objects.values_list("title", flat=True)) == ["day", "month", "year"]
    assert list(NewsItem.objects.in_year(2026).values_list("title", flat=True)) == ["day", "month"]
    assert list(NewsItem.objects.years()) == ["2026", "2025"]


@pytest.mark.django_db
def test_model_validation_reports_a_bad_date_on_its_field():
    item = NewsItem(title="t", slug="t", date="not a date")
    with pytest.raises(ValidationError) as error:
        item.full_clean()
    assert "date" in error.value.message_dict
