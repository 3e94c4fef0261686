"""The publication list's filters, their facet counts and the chips that undo them."""

import functools
from collections import Counter
from dataclasses import dataclass
from itertools import pairwise

import django_filters
from django import forms
from django.conf import settings
from django.contrib.postgres.search import SearchQuery
from django.core.exceptions import EmptyResultSet
from django.db import connection
from django.db.models import Count, Exists, F, Q, Value
from django.db.models.expressions import CombinedExpression
from django.db.models.functions import Concat, StrIndex, Substr
from django.utils.translation import get_language, gettext, gettext_lazy
from django_stubs_ext import StrOrPromise

from base.filters import (
    ChoiceFilter,
    FilterForm,
    FilterSet,
    MultipleChoiceFilter,
    OptionCheckbox,
    SearchFilter,
    YearFilter,
    canonical_choice,
)
from base.partial_dates import FIRST_YEAR, LAST_YEAR
from base.text import search_terms, word_start
from base.translations import shown, translation_name
from people.models import Person, ResearchArea, ResearchGroup
from publications.models import (
    TITLE_SEARCH_VECTOR,
    Authorship,
    Publication,
    PublicationAward,
    Venue,
)
from publications.search import full_text_candidates

# A facet shows this many options, most papers first, and folds the rest under "Show all N".
FACET_SHOWN = 5
# The filters that narrow by year: the year facet and the chart count without all of them.
YEAR_FILTERS = {"year", "year_min", "year_max"}
ANY, ALL = "any", "all"


class MultipleIntegerField(forms.Field):
    widget = forms.MultipleHiddenInput
    combines_repeated_values = True
    default_error_messages = {"invalid": "“%(value)s” is not a year."}
    # Its bounds, which the API's schema declares too (base/api.py).
    min_value, max_value = FIRST_YEAR, LAST_YEAR

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
            if year is None or not self.min_value <= year <= self.max_value:
                # A huge number would overflow the database's integer, so it is no year either.
                raise forms.ValidationError(
                    self.error_messages["invalid"], code="invalid", params={"value": item}
                )
            years.append(year)
        return sorted(set(years))


class MultipleIntegerFilter(django_filters.Filter):
    field_class = MultipleIntegerField


def search_publications(queryset, name, value):
    """Every word must start a word of the title or of an author's name: "Hang" finds Hang
    Zhu's papers, not Zhang Zhang's. The site search (/search/) reads words the same way. A
    "quoted phrase" must appear as typed, its words in a row. Words fold case and accents as the
    stored text does (publications/search.py), so "uber" finds "Über" on every database.

    On PostgreSQL titles also match by full-text search with English stemming, so "caching"
    finds "Cache" (GIN index: publications/migrations/0002). Names have no stems.

    Both are read from the paper's stored search text (publications/search.py: the title, then
    a name per line), so each word is one condition on one column: one scan of one table on
    SQLite, and on PostgreSQL an OR of a trigram index (migration 0011) and the full-text index
    that the planner can combine, instead of a scan of every author row for each word. On
    SQLite an FTS5 index narrows the rows the patterns read (publications/search.py).
    """
    full_text = connection.vendor == "postgresql"
    if full_text:
        queryset = queryset.annotate(title_search=TITLE_SEARCH_VECTOR)
    terms = search_terms(value)
    for term in terms:
        # A name starts a line of the text, so the title's word breaks find names' words too.
        match = word_start("search_text", term)
        if full_text:
            # Stems widen the match; word starts keep stop words and prefixes working.
            kind = "phrase" if " " in term else "plain"
            match |= Q(title_search=SearchQuery(term, config="english", search_type=kind))
        queryset = queryset.filter(match)
        if (candidates := full_text_candidates(term)) is not None:
            queryset = queryset.filter(candidates)
    return _names_as_names(queryset, terms)


def _names_as_names(queryset, terms: list[str]):
    """Two words in a row that some author's name has in a row ("Xin Jin") are read as that
    name: a paper they match only through two different authors (a Xin Li and a Wei Jin) is
    left out. Words no author has in a row ("Kaffes Zhu") still find co-authors. One condition
    in the same query: whether anyone has the name is an uncorrelated subquery."""
    if not any(" " not in first and " " not in second for first, second in pairwise(terms)):
        return queryset
    # The title is the stored text's first line; a word found there is no name's.
    text = Concat("search_text", Value("\n"))
    queryset = queryset.annotate(search_title=Substr(text, 1, StrIndex(text, Value("\n"))))
    for first, second in pairwise(terms):
        if " " in first or " " in second:
            continue
        as_name, indexed = Q(), Q()
        for phrase in (f"{first} {second}", f"{second} {first}"):
            as_name |= word_start("search_text", phrase)
            # Both orders hold the same characters: both have candidates, or neither.
            indexed |= full_text_candidates(phrase) or Q()
        # On SQLite the FTS5 index narrows the papers the patterns read, as for single words.
        named = Publication.objects.published().filter(indexed).filter(as_name)
        queryset = queryset.filter(
            as_name
            | word_start("search_title", first)
            | word_start("search_title", second)
            | ~Exists(named)
        )
    return queryset


def published_choices(model):
    """The (slug, name) of each published row of `model`, read on the first call only; the
    name in the reader's language where staff translated it (a group's, an area's)."""

    @functools.cache
    def choices():
        rows = model.objects.published()
        language = get_language() or settings.LANGUAGE_CODE
        translated = translation_name("name", language)
        if language == settings.LANGUAGE_CODE or translated not in {
            field.name for field in model._meta.concrete_fields
        }:
            return list(rows.values_list("slug", "name"))
        return [
            (row.slug, shown(row, "name").text) for row in rows.only("slug", "name", translated)
        ]

    return choices


class FiledFilterSet(FilterSet):
    """The research group and area filters of the lists of what staff file under them (outputs,
    projects: their QuerySets' of_groups and in_areas), offering the published ones."""

    group = MultipleChoiceFilter(method="filter_group", label=gettext_lazy("Research group"))
    area = MultipleChoiceFilter(method="filter_area", label=gettext_lazy("Research area"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.filters["group"].extra["choices"] = published_choices(ResearchGroup)
        self.filters["area"].extra["choices"] = published_choices(ResearchArea)

    def filter_group(self, queryset, name, value):
        return (
            queryset.of_groups(ResearchGroup.objects.filter(slug__in=value)) if value else queryset
        )

    def filter_area(self, queryset, name, value):
        return queryset.in_areas(ResearchArea.objects.filter(slug__in=value)) if value else queryset


class PublicationFilterForm(FilterForm):
    """Reads "from 2024 to 2020" as 2020 to 2024, and says so."""

    def clean(self):
        cleaned = super().clean()
        self.corrections: list[str] = []
        first, last = cleaned.get("year_min"), cleaned.get("year_max")
        if first is not None and last is not None and first > last:
            cleaned["year_min"], cleaned["year_max"] = last, first
            self.corrections.append(
                gettext(
                    "The years “from %(first)s to %(last)s” were read as from %(last)s to %(first)s."
                )
                % {"first": first, "last": last}
            )
        return cleaned


class PublicationFilter(FilterSet):
    venue = MultipleChoiceFilter(
        field_name="venue__short_name", label=gettext_lazy("Venue"), distinct=False
    )
    year = MultipleIntegerFilter(field_name="year", lookup_expr="in", label=gettext_lazy("Year"))
    year_min = YearFilter(field_name="year", lookup_expr="gte", label=gettext_lazy("From year"))
    year_max = YearFilter(field_name="year", lookup_expr="lte", label=gettext_lazy("To year"))
    type = MultipleChoiceFilter(
        choices=Publication.Type.choices, label=gettext_lazy("Type"), distinct=False
    )
    author = MultipleChoiceFilter(method="filter_author", label=gettext_lazy("Lab member"))
    authors = ChoiceFilter(
        choices=[(ANY, gettext_lazy("Any of them")), (ALL, gettext_lazy("All of them together"))],
        method="filter_nothing",
        label=gettext_lazy("Papers by"),
        empty_label=None,
    )
    group = MultipleChoiceFilter(method="filter_group", label=gettext_lazy("Research group"))
    area = MultipleChoiceFilter(method="filter_area", label=gettext_lazy("Research area"))
    award = ChoiceFilter(
        choices=[("1", gettext_lazy("Has an award"))],
        method="filter_award",
        label=gettext_lazy("Only papers with an award"),
        empty_label=None,
        widget=OptionCheckbox(),
    )
    q = SearchFilter(method=search_publications, label=gettext_lazy("Words in title or authors"))

    # The filters whose choices are read when first needed (a callable), and the legend their
    # chips above the list give them: a filterset composed above adds its own (the funder,
    # projects/filters.py).
    chip_legends = {
        "group": gettext_lazy("Research group"),
        "area": gettext_lazy("Research area"),
    }

    class Meta:
        model = Publication
        form = PublicationFilterForm
        fields = [
            "venue", "year", "year_min", "year_max", "type", "author", "authors", "group", "area",
            "award", "q",
        ]  # fmt: skip

    def __init__(self, *args, without: tuple[str, ...] = (), **kwargs):
        """`without` names filters a page leaves out: a group's page lists only that group's
        papers, so it has no group filter."""
        super().__init__(*args, **kwargs)
        for name in without:
            del self.filters[name]
        # Two small queries for the choices, whatever the number of publications.
        venues = Venue.objects.order_by("short_name").values_list("pk", "short_name")
        self.filters["venue"].extra["choices"] = [(name, name) for _, name in venues]
        # The venue facet counts by these ids: no join to the venues for each paper counted.
        self.venue_names = dict(venues)
        members = Person.objects.published().order_by("name").values_list("pk", "slug", "name")
        self.filters["author"].extra["choices"] = [(slug, name) for _, slug, name in members]
        # The member facet counts by these ids: read with the choices, at no query of its own.
        self.member_slugs = {pk: slug for pk, slug, _ in members}
        # Read when first needed, once: to check a value given, or to offer the facet. A feed
        # or an export without a group or area pays no query for them.
        for name, model in [("group", ResearchGroup), ("area", ResearchArea)]:
            if name in self.filters:
                self.filters[name].extra["choices"] = published_choices(model)

    @property
    def all_authors(self) -> bool:
        """Papers by every member ticked, rather than by any of them."""
        return self.form.cleaned_data.get("authors") == ALL

    def filter_author(self, queryset, name, value):
        """By the members' ids, read with the choices (the form took only their slugs): given
        an id, PostgreSQL knows how many author rows a member has (8,000 of 1.5 million at
        200,000 papers) and looks their papers up; through a subquery on the people table it
        expected ten times more and read every paper, for the count and each facet."""
        ids = {slug: pk for pk, slug in self.member_slugs.items()}
        if not self.all_authors:
            return queryset.authored_by([ids[slug] for slug in value])
        for slug in value:
            queryset = queryset.authored_by([ids[slug]])
        return queryset

    def filter_nothing(self, queryset, name, value):
        """`authors` only says how `author` combines its members."""
        return queryset

    def filter_group(self, queryset, name, value):
        return queryset.of_groups(ResearchGroup.objects.filter(slug__in=value))

    def filter_area(self, queryset, name, value):
        return queryset.in_areas(ResearchArea.objects.filter(slug__in=value))

    def filter_award(self, queryset, name, value):
        return queryset.filter(pk__in=PublicationAward.objects.values("publication"))

    def notices(self) -> list[str]:
        self.form.is_valid()
        return [*self.ignored_values(), *getattr(self.form, "corrections", [])]


def count_by(filterset: PublicationFilter, field: str, *excluded: str) -> dict:
    """Publications per value of `field` under every filter but the `excluded`: one query.
    COUNT(*), not COUNT(id): the same number (an id is never null), but PostgreSQL then counts
    from the facet indexes alone (Publication.Meta.indexes) instead of reading every row."""
    rows = (
        filterset.queryset_without(*excluded)
        .filter(**{f"{field}__isnull": False})
        .order_by()
        .values(field)
        .annotate(count=Count("*"))
    )
    return {row[field]: row["count"] for row in rows}


def member_counts(filterset: PublicationFilter) -> dict[str, int]:
    """Papers per published member under every filter but the members': one query over the
    members' author rows (the person index alone). Counted DISTINCT: nothing keeps a member
    from being two authors of one paper.

    Under no other filter (the whole list, and a member's papers: the first pages asked for
    after an edit) they are every paper of the member but the drafts: at 200,000 papers that
    reads 110,000 index entries and the few drafts' authors (20-40 ms) instead of looking
    each of those papers up among the 198,000 published ones (110-190 ms). Otherwise each
    row's paper is looked up in the filtered papers, which the database reads once into a hash
    (PostgreSQL) or a temporary index (SQLite). The members are named by their ids, read with
    the filter's choices: joined to the people table instead, PostgreSQL expected every author
    row of the table (1.5 million, the unlinked ones too) and looked 110,000 papers up by key
    (0.5 s). SQLite would look every (member, paper) pair up in the person index (2 s) unless
    the paper column is an expression (`+ 0`), which makes it scan the members' rows instead.
    """
    members = filterset.member_slugs
    papers = filterset.queryset_without("author", "authors").order_by().values("pk")
    rows = Authorship.objects.order_by().values("researcher_id")
    distinct_papers = Count("publication", distinct=True)
    if are_every_published_paper(papers):
        drafts = Publication.objects.filter(is_published=False).values("pk")
        linked = rows.filter(researcher__isnull=False)
        counted = linked.annotate(count=distinct_papers).union(
            linked.filter(publication__in=drafts).annotate(count=-distinct_papers), all=True
        )
    else:
        paper: F | CombinedExpression = F("publication_id")
        if connection.vendor == "sqlite":
            paper = paper + 0
        counted = (
            rows.alias(paper=paper)
            .filter(researcher_id__in=members, paper__in=papers)
            .annotate(count=distinct_papers)
        )
    counts: Counter[str] = Counter()
    for row in counted:
        if row["researcher_id"] in members:
            counts[members[row["researcher_id"]]] += row["count"]
    return {slug: count for slug, count in counts.items() if count}


def are_every_published_paper(papers) -> bool:
    """Whether the query `papers` reads is Publication.objects.published()'s, as SQL: no filter
    narrows them. A query that can find nothing has no SQL: not all papers either."""
    every = Publication.objects.published().order_by().values("pk")
    try:
        return str(papers.query) == str(every.query)
    except EmptyResultSet:
        return False


def year_counts(filterset: PublicationFilter) -> dict[int, int]:
    """Publications per year under every filter but the years': for the year control and the
    chart. Years outside the site's range (an old import's "0") are no option the filter could
    take, so they are not counted as one."""
    rows = (
        filterset.queryset_without(*YEAR_FILTERS)
        .filter(year__gte=FIRST_YEAR, year__lte=LAST_YEAR)
        .order_by()
        .values("year")
        .annotate(count=Count("*"))
    )
    return {row["year"]: row["count"] for row in rows}


@dataclass(frozen=True)
class FacetOption:
    value: str
    label: StrOrPromise  # a type's is lazy: kept in the cache, said in the page's language
    count: int
    selected: bool


@dataclass(frozen=True)
class Facet:
    """One filter's options, most papers first. `shown` holds the first few and every ticked
    option; `more` the rest, folded under "Show all"."""

    name: str
    legend: StrOrPromise  # lazy: kept in the cache, said in the page's language
    options: list[FacetOption]
    shown: list[FacetOption]
    more: list[FacetOption]
    # What the counts count, for screen readers: "publications" or "events".
    counted: str = "publications"


def facet(
    name: str,
    legend: StrOrPromise,
    choices,
    counts: dict,
    selected,
    *,
    counted: str = "publications",
) -> Facet:
    """Options with a count, or ticked: an option that would give no paper is offered only
    when it is ticked, so it can be unticked."""
    options = [
        FacetOption(str(value), label, counts.get(value, 0), value in selected)
        for value, label in choices
        if counts.get(value) or value in selected
    ]
    options.sort(key=lambda option: (-option.count, option.label.lower()))
    top = {option.value for option in options[:FACET_SHOWN]}
    shown = [option for option in options if option.value in top or option.selected]
    more = [option for option in options if option not in shown]
    return Facet(name, legend, options, shown, more, counted)


def facets(filterset: PublicationFilter) -> dict[str, Facet]:
    """Venue, type and member options, and research group and area options where the site
    has any, each counted with the other filters applied.

    One aggregate query per facet, whatever the number of publications.
    """
    cleaned = filterset.form.cleaned_data
    venues = filterset.filters["venue"].extra["choices"]
    members = filterset.filters["author"].extra["choices"]
    return {
        **department_facets(filterset),
        "venue": facet(
            "venue",
            gettext_lazy("Venue"),
            venues,
            {
                filterset.venue_names[pk]: count
                for pk, count in count_by(filterset, "venue", "venue").items()
                if pk in filterset.venue_names
            },
            set(cleaned.get("venue") or []),
        ),
        "type": facet(
            "type",
            gettext_lazy("Type"),
            Publication.Type.choices,
            count_by(filterset, "type", "type"),
            set(cleaned.get("type") or []),
        ),
        "author": facet(
            "author",
            gettext_lazy("Lab member"),
            members,
            member_counts(filterset),
            set(cleaned.get("author") or []),
        ),
    }


def department_facets(filterset: PublicationFilter) -> dict[str, Facet]:
    """The research group and area options, each with its papers under the other filters; an
    option without papers only while ticked. No query for a facet the site has no choices for,
    or that the page leaves out."""
    counters = {
        "group": lambda: filterset.queryset_without("group").count_by_group(),
        "area": lambda: count_by(filterset, "areas__slug", "area"),
    }
    legends = {"group": gettext_lazy("Research group"), "area": gettext_lazy("Research area")}
    found = {}
    for name, counter in counters.items():
        choices = filterset.filters[name].extra["choices"]() if name in filterset.filters else []
        if choices:
            selected = set(filterset.form.cleaned_data.get(name) or [])
            found[name] = facet(name, legends[name], choices, counter(), selected)
    return found


def award_count(filterset: PublicationFilter) -> int:
    """Papers with an award under every other filter: one query."""
    with_award = filterset.filters["award"].filter
    return with_award(filterset.queryset_without("award"), "1").count()


def filters_query(filterset: PublicationFilter, *, without: tuple[str, ...] = ()) -> str:
    """The query string of the filters in use ("?venue=NSDI&year=2024"): what an export or a
    feed of the same list is asked with. Without the page, and without values the list ignored,
    so the export holds exactly the publications the list shows."""
    query = filterset.data.copy()
    for name in ["page", *filterset.form.errors, *without]:
        query.pop(name, None)
    encoded = query.urlencode()
    return f"?{encoded}" if encoded else ""


@dataclass(frozen=True)
class ActiveFilter:
    label: str
    remove_query: str


def active_filters(filterset: PublicationFilter) -> list[ActiveFilter]:
    """One chip per value the results apply, each with the query string that drops just that
    value. Built from what the form read, so a value it ignored or corrected never shows as
    given."""
    filterset.form.is_valid()
    cleaned = filterset.form.cleaned_data
    kept = filterset.data.copy()
    for name in ["page", *filterset.form.errors]:
        kept.pop(name, None)

    def without(name: str, value=None) -> str:
        remaining = kept.copy()
        if value is None:
            remaining.pop(name, None)
        else:
            choices = filterset.form.fields[name].choices if name != "year" else []
            remaining.setlist(
                name,
                [
                    raw
                    for raw in kept.getlist(name)
                    if str(canonical_choice(choices, raw)) != str(value)
                ],
            )
        return remaining.urlencode()

    chips = []
    labels = {
        "venue": (gettext("Venue"), {}),
        "type": (gettext("Type"), dict(Publication.Type.choices)),
        # Named as the facet names it.
        "author": (gettext("Lab member"), dict(filterset.filters["author"].extra["choices"])),
        **{
            name: (str(legend), dict(filterset.filters[name].extra["choices"]()))
            for name, legend in filterset.chip_legends.items()
            if cleaned.get(name) and name in filterset.filters
        },
    }
    for name, (legend, names) in labels.items():
        for value in cleaned.get(name) or []:
            chips.append(ActiveFilter(f"{legend}: {names.get(value, value)}", without(name, value)))
    for year in cleaned.get("year") or []:
        chips.append(
            ActiveFilter(gettext("Year: %(year)s") % {"year": year}, without("year", year))
        )
    first, last = cleaned.get("year_min"), cleaned.get("year_max")
    if first is not None or last is not None:
        if first == last:
            label = gettext("Year: %(year)s") % {"year": first}
        elif first is not None and last is not None:
            label = gettext("Years: %(first)s–%(last)s") % {"first": first, "last": last}
        else:
            label = (
                gettext("Years: from %(first)s") % {"first": first}
                if first is not None
                else gettext("Years: until %(last)s") % {"last": last}
            )
        remaining = kept.copy()
        remaining.pop("year_min", None)
        remaining.pop("year_max", None)
        chips.append(ActiveFilter(label, remaining.urlencode()))
    if cleaned.get("award"):
        chips.append(ActiveFilter(gettext("With an award"), without("award")))
    if cleaned.get("q"):
        chips.append(
            ActiveFilter(gettext("Words: %(words)s") % {"words": cleaned["q"]}, without("q"))
        )
    return chips


def year_link(filterset: PublicationFilter, year: int) -> str:
    """The list under the same filters, narrowed to one year instead of the years chosen."""
    query = filterset.data.copy()
    for name in ["page", *filterset.form.errors, *YEAR_FILTERS]:
        query.pop(name, None)
    query["year_min"] = query["year_max"] = str(year)
    return f"?{query.urlencode()}"


def in_chosen_years(filterset: PublicationFilter, year: int) -> bool:
    """Whether the year filters in use take `year`; False when none is in use."""
    cleaned = filterset.form.cleaned_data
    exact, first, last = cleaned.get("year"), cleaned.get("year_min"), cleaned.get("year_max")
    if not exact and first is None and last is None:
        return False
    return (
        (not exact or year in exact)
        and (first is None or year >= first)
        and (last is None or year <= last)
    )


@dataclass(frozen=True)
class YearOption:
    year: int
    count: int


def year_options(filterset: PublicationFilter, counts: dict[int, int]) -> list[YearOption]:
    """The years the From and To controls offer, newest first: those with papers under the
    other filters, and the ones chosen."""
    cleaned = filterset.form.cleaned_data
    chosen = {cleaned.get("year_min"), cleaned.get("year_max")} - {None}
    return [
        YearOption(year, counts.get(year, 0))
        for year in sorted(counts.keys() | chosen, reverse=True)
    ]
