"""The publication list's filters, their facet counts and the chips that undo them."""

import functools
from dataclasses import dataclass

import django_filters
from django import forms
from django.contrib.postgres.search import SearchQuery
from django.db import connection
from django.db.models import Count, Q

from directory.filters import FilterSet, OptionCheckbox, SearchFilter, YearFilter
from directory.partial_dates import FIRST_YEAR, LAST_YEAR
from people.models import Person, ResearchArea, ResearchGroup
from publications.models import (
    TITLE_SEARCH_VECTOR,
    Authorship,
    Publication,
    PublicationAward,
    Venue,
)


class CaseInsensitiveMultipleChoiceField(forms.MultipleChoiceField):
    """Accepts "nsdi" for the choice "NSDI" and hands on the canonical spelling."""

    def to_python(self, value):
        canonical = {str(key).lower(): key for key, _ in self.choices}
        return [canonical.get(str(item).lower(), item) for item in super().to_python(value)]


class CaseInsensitiveMultipleChoiceFilter(django_filters.MultipleChoiceFilter):
    field_class = CaseInsensitiveMultipleChoiceField


class MultipleIntegerField(forms.Field):
    widget = forms.MultipleHiddenInput
    default_error_messages = {"invalid": "“%(value)s” is not a year."}

    def to_python(self, value):
        if not value:
            return []
        values = value if isinstance(value, list | tuple) else [value]
        years = []
        for item in values:
            try:
                year = int(item)
            except (TypeError, ValueError):
                year = None
            if year is None or not FIRST_YEAR <= year <= LAST_YEAR:
                # A huge number would overflow the database's integer, so it is no year either.
                raise forms.ValidationError(
                    self.error_messages["invalid"], code="invalid", params={"value": item}
                )
            years.append(year)
        return years


class MultipleIntegerFilter(django_filters.Filter):
    field_class = MultipleIntegerField


def search_publications(queryset, name, value):
    """Every word must appear in the title or in an author's name.

    A word matches as a substring; on PostgreSQL titles also match by full-text search with
    English stemming, so "caching" finds "Cache" (GIN index: publications/migrations/0002).
    Author names always match as substrings: names have no stems.
    """
    full_text = connection.vendor == "postgresql"
    if full_text:
        queryset = queryset.annotate(title_search=TITLE_SEARCH_VECTOR)
    for word in value.split():
        by_author = Authorship.objects.filter(name__icontains=word).values("publication")
        in_title = Q(title__icontains=word)
        if full_text:
            # Stems widen the match; the substring keeps stop words and prefixes working.
            in_title |= Q(title_search=SearchQuery(word, config="english"))
        queryset = queryset.filter(in_title | Q(pk__in=by_author))
    return queryset


def published_choices(model):
    """The (slug, name) of each published row of `model`, read on the first call only."""

    @functools.cache
    def choices():
        return list(model.objects.published().values_list("slug", "name"))

    return choices


class PublicationFilter(FilterSet):
    venue = CaseInsensitiveMultipleChoiceFilter(
        field_name="venue__short_name",
        label="Venue",
        distinct=False,
    )
    year = MultipleIntegerFilter(field_name="year", lookup_expr="in", label="Year")
    year_min = YearFilter(field_name="year", lookup_expr="gte", label="From year")
    year_max = YearFilter(field_name="year", lookup_expr="lte", label="To year")
    type = django_filters.MultipleChoiceFilter(
        choices=Publication.Type.choices, label="Type", distinct=False
    )
    author = django_filters.ChoiceFilter(
        method="filter_author", label="Lab member", empty_label="Anyone"
    )
    group = django_filters.MultipleChoiceFilter(method="filter_group", label="Research group")
    area = django_filters.MultipleChoiceFilter(method="filter_area", label="Research area")
    award = django_filters.ChoiceFilter(
        choices=[("1", "Has an award")],
        method="filter_award",
        label="Only papers with an award",
        empty_label=None,
        widget=OptionCheckbox(),
    )
    q = SearchFilter(method=search_publications, label="Words in title or authors")

    class Meta:
        model = Publication
        fields = [
            "venue", "year", "year_min", "year_max", "type", "author", "group", "area", "award",
            "q",
        ]  # fmt: skip

    def __init__(self, *args, without: tuple[str, ...] = (), **kwargs):
        """`without` names filters a page leaves out: a group's page lists only that group's
        papers, so it has no group filter."""
        super().__init__(*args, **kwargs)
        for name in without:
            del self.filters[name]
        # Two small queries for the choices, whatever the number of publications.
        venues = Venue.objects.order_by("short_name").values_list("short_name", flat=True)
        self.filters["venue"].extra["choices"] = [(name, name) for name in venues]
        members = Person.objects.published().order_by("name").values_list("slug", "name")
        self.filters["author"].extra["choices"] = list(members)
        # Read when first needed, once: to check a value given, or to offer the facet. A feed
        # or an export without a group or area pays no query for them.
        for name, model in [("group", ResearchGroup), ("area", ResearchArea)]:
            if name in self.filters:
                self.filters[name].extra["choices"] = published_choices(model)

    def filter_author(self, queryset, name, value):
        return queryset.authored_by(Person.objects.filter(slug=value))

    def filter_group(self, queryset, name, value):
        return queryset.of_groups(ResearchGroup.objects.filter(slug__in=value))

    def filter_area(self, queryset, name, value):
        return queryset.in_areas(ResearchArea.objects.filter(slug__in=value))

    def filter_award(self, queryset, name, value):
        return queryset.filter(pk__in=PublicationAward.objects.values("publication"))

    def queryset_without(self, excluded: str):
        """The publications every valid filter but `excluded` gives: what a facet counts."""
        queryset = self.queryset.all()
        for name, value in self.form.cleaned_data.items():
            if name != excluded:
                queryset = self.filters[name].filter(queryset, value)
        return queryset


def count_by(filterset: PublicationFilter, facet: str, field: str) -> dict:
    """Publications per value of `field` under every filter but `facet`'s: one query."""
    rows = (
        filterset.queryset_without(facet)
        .exclude(**{field: None})
        .order_by()
        .values(field)
        .annotate(count=Count("pk"))
    )
    return {row[field]: row["count"] for row in rows}


@dataclass(frozen=True)
class FacetOption:
    value: str
    label: str
    count: int
    selected: bool


def facets(filterset: PublicationFilter) -> dict[str, list[FacetOption]]:
    """Venue, year and type options, and research group and area options where the site has
    any, each counted with the other filters applied.

    One aggregate query per facet, whatever the number of publications.
    """
    cleaned = filterset.form.cleaned_data
    selected_venues = set(cleaned.get("venue") or [])
    selected_years = set(cleaned.get("year") or [])
    selected_types = set(cleaned.get("type") or [])

    venue_count = count_by(filterset, "venue", "venue__short_name")
    year_count = count_by(filterset, "year", "year")
    type_count = count_by(filterset, "type", "type")

    return {
        **department_facets(filterset),
        "venue": [
            FacetOption(name, name, venue_count.get(name, 0), name in selected_venues)
            for name in sorted(venue_count.keys() | selected_venues, key=str.lower)
        ],
        "year": [
            FacetOption(str(year), str(year), year_count.get(year, 0), year in selected_years)
            for year in sorted(year_count.keys() | selected_years, reverse=True)
        ],
        "type": [
            FacetOption(value, label, type_count.get(value, 0), value in selected_types)
            for value, label in Publication.Type.choices
            if value in type_count or value in selected_types
        ],
    }


def department_facets(filterset: PublicationFilter) -> dict[str, list[FacetOption]]:
    """The research group and area options, each with its papers under the other filters, in
    the staff's order; an option without papers only while ticked. No query for a facet the
    site has no choices for."""
    counters = {
        "group": lambda: filterset.queryset_without("group").count_by_group(),
        "area": lambda: count_by(filterset, "area", "areas__slug"),
    }
    found = {}
    for name, counter in counters.items():
        choices = filterset.filters[name].extra["choices"]() if name in filterset.filters else []
        if not choices:
            continue
        counts = counter()
        selected = set(filterset.form.cleaned_data.get(name) or [])
        found[name] = [
            FacetOption(slug, label, counts.get(slug, 0), slug in selected)
            for slug, label in choices
            if counts.get(slug) or slug in selected
        ]
    return found


def filters_query(filterset: PublicationFilter) -> str:
    """The query string of the filters in use ("?venue=NSDI&year=2024"): what an export or a
    feed of the same list is asked with. Without the page, and without values the list ignored,
    so the export holds exactly the publications the list shows."""
    query = filterset.data.copy()
    for name in ["page", *filterset.form.errors]:
        query.pop(name, None)
    encoded = query.urlencode()
    return f"?{encoded}" if encoded else ""


@dataclass(frozen=True)
class ActiveFilter:
    label: str
    remove_query: str


def active_filters(filterset: PublicationFilter) -> list[ActiveFilter]:
    """One chip per value in use, each with the query string that drops just that value."""
    chips = []
    cleaned = filterset.form.cleaned_data
    labels = {
        "type": dict(Publication.Type.choices),
        "author": dict(filterset.filters["author"].extra["choices"]),
        "award": {"1": "Has an award"},
        **{
            name: dict(filterset.filters[name].extra["choices"]())
            for name in ("group", "area")
            if filterset.data.get(name) and name in filterset.filters
        },
    }
    for name in filterset.form.fields:
        if name not in cleaned or cleaned[name] in (None, "", []):
            continue
        values = filterset.data.getlist(name)
        for value in values:
            shown = labels.get(name, {}).get(value, value)
            prefix = {"year_min": "From ", "year_max": "Until ", "q": "Words: "}.get(name, "")
            remaining = filterset.data.copy()
            remaining.setlist(name, [other for other in values if other != value])
            remaining.pop("page", None)
            chips.append(ActiveFilter(f"{prefix}{shown}", remaining.urlencode()))
    return chips
