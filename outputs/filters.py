"""The output list's filters (/outputs/ and /api/outputs/): words, kind, year, creator, group and
area, with a count beside each option as the publication list counts its own
(publications.filters.facet)."""

from django import forms
from django.db.models import Count
from django.utils.translation import gettext, gettext_lazy

from base.filters import MultipleChoiceFilter, SearchFilter, YearFilter
from base.site_cache import cached
from base.text import folded_matches, search_terms
from outputs.models import Output, OutputCreator
from people.models import Person
from publications.filters import Facet, FiledFilterSet, facet


def search_outputs(queryset, name, value):
    """Every word (or "quoted phrase") must start a word of the title, the description or a
    creator's name, folding case and accents, as the news search does. Outputs are few: their
    texts are read in two queries whatever the number of words."""
    if not (terms := search_terms(value)):
        return queryset
    rows = Output.objects.filter(pk__in=queryset.values("pk")).values_list(
        "pk", "title", "description"
    )
    names: dict[int, list[str]] = {}
    for output, creator in OutputCreator.objects.filter(
        output__in=queryset.values("pk")
    ).values_list("output", "researcher__name"):
        names.setdefault(output, []).append(creator)
    texts = (
        (pk, "\n".join([title, description, *names.get(pk, [])])) for pk, title, description in rows
    )
    return queryset.filter(pk__in=folded_matches(texts, terms))


def output_choices() -> tuple[list[tuple[int, int]], list[tuple[str, str]]]:
    """The years outputs were released in, and every published member, as the publication
    list's member filter takes them: a member without outputs is an empty list, not a refusal
    (the facet offers only those with a count)."""
    years = [(int(year), int(year)) for year in Output.objects.published().years()]
    members = Person.objects.published().order_by("name").values_list("slug", "name")
    return years, list(members)


class OutputFilter(FiledFilterSet):
    q = SearchFilter(method=search_outputs, label=gettext_lazy("Words"))
    kind = MultipleChoiceFilter(
        choices=Output.Kind.choices, method="filter_kind", label=gettext_lazy("Kind")
    )
    year = YearFilter(method="filter_year", label=gettext_lazy("Year released"))
    creator = MultipleChoiceFilter(method="filter_creator", label=gettext_lazy("Lab member"))

    class Meta:
        model = Output
        fields = ["q", "kind", "year", "creator", "group", "area"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Each reads every output: kept until the next change.
        years, creators = cached("output-choices", None, output_choices)
        self.filters["year"].extra["widget"] = forms.Select(
            choices=[("", gettext("Any year")), *years]
        )
        self.filters["creator"].extra["choices"] = creators

    def filter_kind(self, queryset, name, value):
        return queryset.filter(kind__in=value) if value else queryset

    def filter_year(self, queryset, name, value):
        # Release dates are ISO strings ("2026", "2026-07-25"): a year is a prefix.
        return queryset.filter(released__startswith=f"{int(value):04d}")

    def filter_creator(self, queryset, name, value):
        if not value:
            return queryset
        return queryset.by(Person.objects.filter(slug__in=value))


def facets(filterset: OutputFilter) -> dict[str, Facet]:
    """Kind, member, group and area options, each counted under the other filters: one
    aggregate query per facet, whatever the number of outputs; none for a facet without
    choices (a site with no groups)."""
    cleaned = filterset.form.cleaned_data if filterset.form.is_valid() else {}
    found = {}
    counters = {
        "kind": ("kind", lambda: Output.Kind.choices),
        "creator": (
            "creators__researcher__profile__slug",
            lambda: filterset.filters["creator"].extra["choices"],
        ),
        "group": ("groups__slug", filterset.filters["group"].extra["choices"]),
        "area": ("areas__slug", filterset.filters["area"].extra["choices"]),
    }
    for name, (path, choices_of) in counters.items():
        choices = choices_of()
        if not choices:
            continue
        rows = (
            filterset.queryset_without(name)
            .order_by()
            .values(path)
            .annotate(count=Count("pk", distinct=True))
        )
        counts = {row[path]: row["count"] for row in rows}
        selected = set(cleaned.get(name) or [])
        found[name] = facet(name, filterset.filters[name].label, choices, counts, selected)
    return found
