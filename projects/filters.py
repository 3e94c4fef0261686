"""The project list's filters (/projects/ and /api/projects/): words, status (current or past),
funder, member, group and area, with a count beside each option as the publication list counts
its own; and the publication list's funder filter (FundedPublicationFilter), declared here
because publications may not import projects (docs/decisions/projects.md)."""

from django.db.models import Case, CharField, Count, Value, When
from django.utils.translation import gettext_lazy

from base.filters import MultipleChoiceFilter, SearchFilter
from base.markdown import plain_text
from base.text import folded_matches, search_terms
from people.models import Person
from projects.models import Funder, Grant, Project, ProjectPerson, past_condition
from publications.filters import Facet, FiledFilterSet, PublicationFilter, facet

STATUSES = [("current", gettext_lazy("Current")), ("past", gettext_lazy("Past"))]


def search_projects(queryset, name, value):
    """Every word (or "quoted phrase") must start a word of the title, the summary, a person's
    name, a funder's name or an award number, folding case and accents, as the outputs'
    search does: three queries whatever the number of words."""
    if not (terms := search_terms(value)):
        return queryset
    chosen = queryset.values("pk")
    # The summary as visitors read it: "*rewire*" is found by "rewire".
    texts: list[tuple[int, str]] = [
        (pk, f"{title}\n{plain_text(summary_html)}")
        for pk, title, summary_html in Project.objects.filter(pk__in=chosen).values_list(
            "pk", "title", "summary_html"
        )
    ]
    texts += ProjectPerson.objects.filter(project__in=chosen).values_list(
        "project", "researcher__name"
    )
    for project, funder, award in Grant.objects.filter(project__in=chosen).values_list(
        "project", "funder__name", "award_number"
    ):
        texts.append((project, f"{funder} {award}"))
    return queryset.filter(pk__in=folded_matches(texts, terms))


def funder_choices() -> list[tuple[str, str]]:
    """Every funder, by name: a short table (a lab has tens)."""
    return list(Funder.objects.order_by("name").values_list("slug", "name"))


def member_choices() -> list[tuple[str, str]]:
    return list(Person.objects.published().order_by("name").values_list("slug", "name"))


class ProjectFilter(FiledFilterSet):
    q = SearchFilter(method=search_projects, label=gettext_lazy("Words"))
    status = MultipleChoiceFilter(
        choices=STATUSES, method="filter_status", label=gettext_lazy("Status")
    )
    funder = MultipleChoiceFilter(method="filter_funder", label=gettext_lazy("Funder"))
    member = MultipleChoiceFilter(method="filter_member", label=gettext_lazy("Lab member"))

    class Meta:
        model = Project
        fields = ["q", "status", "funder", "member", "group", "area"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Callables: read only to check a value given, or to offer the facet.
        self.filters["funder"].extra["choices"] = funder_choices
        self.filters["member"].extra["choices"] = member_choices

    def filter_status(self, queryset, name, value):
        if not value or set(value) == {"current", "past"}:
            return queryset
        return queryset.past() if "past" in value else queryset.current()

    def filter_funder(self, queryset, name, value):
        return queryset.funded_by(Funder.objects.filter(slug__in=value)) if value else queryset

    def filter_member(self, queryset, name, value):
        return queryset.with_person(Person.objects.filter(slug__in=value)) if value else queryset


def facets(filterset: ProjectFilter) -> dict[str, Facet]:
    """Status, funder, member, group and area options, each counted under the other filters:
    one aggregate query per facet, whatever the number of projects."""
    cleaned = filterset.form.cleaned_data if filterset.form.is_valid() else {}
    status = Case(
        When(past_condition(), then=Value("past")),
        default=Value("current"),
        output_field=CharField(),
    )
    counters = {
        "status": (status, lambda: STATUSES),
        "funder": ("grants__funder__slug", funder_choices),
        "member": ("people__researcher__profile__slug", member_choices),
        "group": ("groups__slug", filterset.filters["group"].extra["choices"]),
        "area": ("areas__slug", filterset.filters["area"].extra["choices"]),
    }
    found = {}
    for name, (path, choices_of) in counters.items():
        queryset = filterset.queryset_without(name).order_by()
        if not isinstance(path, str):
            queryset, path = queryset.annotate(status_now=path), "status_now"
        rows = queryset.values(path).annotate(count=Count("pk", distinct=True))
        counts = {row[path]: row["count"] for row in rows if row[path] is not None}
        if not counts and not cleaned.get(name):
            continue  # no option to offer: no query for the choices
        selected = set(cleaned.get(name) or [])
        found[name] = facet(
            name, filterset.filters[name].label, choices_of(), counts, selected, counted="projects"
        )
    return found


class FundedPublicationFilter(PublicationFilter):
    """The publication list's filters and a funder: the papers that acknowledge a grant of any
    of the funders ticked. Declared above publications (which may not import projects); the
    pages compose it (pages/views/publications.py)."""

    funder = MultipleChoiceFilter(method="filter_funder", label=gettext_lazy("Funder"))
    chip_legends = {**PublicationFilter.chip_legends, "funder": gettext_lazy("Funder")}

    class Meta(PublicationFilter.Meta):
        fields = [*PublicationFilter.Meta.fields, "funder"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.filters["funder"].extra["choices"] = funder_choices

    def filter_funder(self, queryset, name, value):
        if not value:
            return queryset
        acknowledged = Grant.publications.through.objects.filter(grant__funder__slug__in=value)
        return queryset.filter(pk__in=acknowledged.values("publication"))


def funder_facet(filterset: FundedPublicationFilter) -> dict[str, Facet]:
    """The funder option of the publication list, counted under the other filters: one query
    over the acknowledgements (none more for the choices unless a funder is ticked), and no
    facet when no listed paper acknowledges a grant."""
    papers = filterset.queryset_without("funder").order_by().values("pk")
    rows = (
        Grant.publications.through.objects.filter(publication__in=papers)
        .order_by()
        .values("grant__funder__slug", "grant__funder__name")
        .annotate(count=Count("publication", distinct=True))
    )
    counts = {row["grant__funder__slug"]: row["count"] for row in rows}
    selected = set(filterset.form.cleaned_data.get("funder") or [])
    if not counts and not selected:
        return {}
    names = {row["grant__funder__slug"]: row["grant__funder__name"] for row in rows}
    choices = funder_choices() if selected - names.keys() else sorted(names.items())
    return {"funder": facet("funder", gettext_lazy("Funder"), choices, counts, selected)}
