"""Dates that keep the precision their source gave: "2026", "Jul 2026" or "25 Jul 2026".

A profile that says "2026" must never be shown as "Jan. 1, 2026", so a partial date is stored
as a reduced-precision ISO 8601 string ("2026", "2026-07", "2026-07-25"). Such strings sort in
date order, so the database can order and filter by them without any conversion.
"""

import datetime
import re
from dataclasses import dataclass
from functools import total_ordering
from typing import Any

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models.functions import Cast, Left, Length
from django.utils import formats, translation
from django.utils.translation import gettext

# Every year on the site has four digits: the dates of CVs and news, publication years, and the
# year filters' bounds all come from here.
FIRST_YEAR, LAST_YEAR = 1000, 9999
YEAR_VALIDATORS = [MinValueValidator(FIRST_YEAR), MaxValueValidator(LAST_YEAR)]

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
MONTH_NUMBERS = {name.lower(): number for number, name in enumerate(MONTHS, start=1)}
MONTH_NUMBERS |= {
    datetime.date(2000, number, 1).strftime("%B").lower(): number for number in range(1, 13)
}
MONTH_NUMBERS["sept"] = 9

ISO_PATTERN = re.compile(r"^(?P<year>\d{4})(?:-(?P<month>\d{1,2})(?:-(?P<day>\d{1,2}))?)?$")
MONTH_YEAR_PATTERN = re.compile(r"^(?P<month>[a-z]+)\.?\s+(?P<year>\d{4})$")
DAY_MONTH_YEAR_PATTERN = re.compile(
    r"^(?P<day>\d{1,2})\s+(?P<month>[a-z]+)\.?,?\s+(?P<year>\d{4})$"
)
MONTH_DAY_YEAR_PATTERN = re.compile(
    r"^(?P<month>[a-z]+)\.?\s+(?P<day>\d{1,2}),?\s+(?P<year>\d{4})$"
)

INPUT_HELP = 'A year ("2026"), a month ("Jul 2026" or "2026-07") or a day ("25 Jul 2026").'


class DatePrecision(models.TextChoices):
    YEAR = "year", "Year"
    MONTH = "month", "Month"
    DAY = "day", "Day"


@total_ordering
@dataclass(frozen=True)
class PartialDate:
    year: int
    month: int | None = None
    day: int | None = None

    def __post_init__(self) -> None:
        if self.day is not None and self.month is None:
            raise ValueError("A day needs a month.")
        # Raises ValueError for a month or day that does not exist: day 0 and month 0 included,
        # which `or 1` once read as the first ("0 Jan 2026" was stored as a date).
        datetime.date(
            self.year,
            1 if self.month is None else self.month,
            1 if self.day is None else self.day,
        )
        if not FIRST_YEAR <= self.year <= LAST_YEAR:
            raise ValueError("The year must have four digits.")

    @classmethod
    def parse(cls, text: str) -> "PartialDate":
        """Read ISO ("2026-07") or the way people write dates ("Jul 2026", "25 July 2026")."""
        cleaned = " ".join(text.strip().lower().split())
        try:
            if match := ISO_PATTERN.match(cleaned):
                return cls(
                    int(match["year"]),
                    int(match["month"]) if match["month"] else None,
                    int(match["day"]) if match["day"] else None,
                )
            for pattern in (MONTH_YEAR_PATTERN, DAY_MONTH_YEAR_PATTERN, MONTH_DAY_YEAR_PATTERN):
                if match := pattern.match(cleaned):
                    groups = match.groupdict()
                    day = int(groups["day"]) if groups.get("day") else None
                    return cls(int(match["year"]), MONTH_NUMBERS[match["month"]], day)
        except (KeyError, ValueError):
            pass
        raise ValueError(f"{text!r} is not a date. {INPUT_HELP}")

    @property
    def precision(self) -> DatePrecision:
        if self.day is not None:
            return DatePrecision.DAY
        if self.month is not None:
            return DatePrecision.MONTH
        return DatePrecision.YEAR

    def isoformat(self) -> str:
        parts = [f"{self.year:04d}"]
        if self.month is not None:
            parts.append(f"{self.month:02d}")
        if self.day is not None:
            parts.append(f"{self.day:02d}")
        return "-".join(parts)

    def first_day(self) -> datetime.date:
        """The earliest real date this stands for, for feeds and sitemaps that need one."""
        return datetime.date(self.year, self.month or 1, self.day or 1)

    def __str__(self) -> str:
        if self.month is None:
            return str(self.year)
        month = MONTHS[self.month - 1]
        if self.day is None:
            return f"{month} {self.year}"
        return f"{self.day} {month} {self.year}"

    def display(self) -> str:
        """As a reader of the page's language reads it: the stored form ("Jul 2026", which the
        admin's forms read back) in the site's own language, else that language's year-month
        and date formats through Django's (zh-hans: "2026年7月", "2026年7月25日")."""
        if translation.get_language() in (None, settings.LANGUAGE_CODE) or self.month is None:
            return str(self)
        day = self.first_day()
        return formats.date_format(day, "DATE_FORMAT" if self.day else "YEAR_MONTH_FORMAT")

    def _sort_key(self) -> tuple[int, int, int]:
        return (self.year, self.month or 0, self.day or 0)

    def __lt__(self, other: "PartialDate") -> bool:
        if not isinstance(other, PartialDate):
            return NotImplemented
        return self._sort_key() < other._sort_key()


def format_period(start: PartialDate | None, end: PartialDate | None, ongoing: bool) -> str:
    """A span as a CV prints it: "2017 – 2022", "Sep 2023 – Present", "Started Oct 2025"."""
    if start and ongoing:
        return gettext("%(start)s – Present") % {"start": start.display()}
    if start and end:
        return start.display() if start == end else f"{start.display()} – {end.display()}"
    if start:
        return gettext("Started %(start)s") % {"start": start.display()}
    if end:
        return gettext("Until %(end)s") % {"end": end.display()}
    return gettext("Present") if ongoing else ""


class PartialDateFormField(forms.CharField):
    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("help_text", INPUT_HELP)
        kwargs["max_length"] = None
        super().__init__(**kwargs)

    def prepare_value(self, value: Any) -> Any:
        return str(value) if isinstance(value, PartialDate) else value

    def to_python(self, value: Any) -> Any:
        value = super().to_python(value)
        if not value:
            return None
        try:
            return PartialDate.parse(value)
        except ValueError as error:
            raise ValidationError(str(error), code="invalid") from None


class PartialDateField(models.CharField[Any, Any]):
    """A PartialDate stored as its ISO string, so the database sorts it as a date."""

    description = "A date with year, month or day precision"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["max_length"] = 10
        super().__init__(*args, **kwargs)

    def deconstruct(self) -> Any:
        name, path, args, kwargs = super().deconstruct()
        del kwargs["max_length"]
        return name, path, args, kwargs

    def from_db_value(self, value: str | None, expression: Any, connection: Any) -> Any:
        return PartialDate.parse(value) if value else None

    def to_python(self, value: Any) -> Any:
        if value is None or isinstance(value, PartialDate):
            return value
        if value == "":
            return None
        try:
            return PartialDate.parse(str(value))
        except ValueError as error:
            raise ValidationError(str(error), code="invalid") from None

    def run_validators(self, value: Any) -> None:
        # CharField's length check measures the stored string, not the PartialDate.
        super().run_validators(value.isoformat() if isinstance(value, PartialDate) else value)

    def get_prep_value(self, value: Any) -> Any:
        value = self.to_python(value)
        return value.isoformat() if value else None

    def value_to_string(self, obj: Any) -> Any:
        value = self.value_from_object(obj)
        return value.isoformat() if value else None

    def formfield(
        self, form_class: Any = None, choices_form_class: Any = None, **kwargs: Any
    ) -> Any:
        return super().formfield(
            form_class=form_class or PartialDateFormField,
            choices_form_class=choices_form_class,
            **kwargs,
        )


def ends_after_it_starts(*, name: str, message: str) -> models.CheckConstraint:
    """A period whose end (when both are known) is not before its start, at the coarser
    precision of the two: "May 2022" to "2022" is a period, "2022" to "Dec 2021" is not.

    The stored ISO strings compare as dates once the start is cut to the end's length.
    """
    return models.CheckConstraint(
        condition=models.Q(start__isnull=True)
        | models.Q(end__isnull=True)
        | models.Q(end__gte=Left("start", Length("end"))),
        name=name,
        violation_error_message=message,
    )


def year_of(field: Any) -> Cast:
    """The year of a partial date as a number, in SQL: "2023-09" → 2023; NULL stays NULL.

    `field` is a field name or an expression (an OuterRef to a date in an enclosing query).
    """
    return Cast(Left(field, 4), models.IntegerField())
