from typing import NamedTuple

from django.db.models import Count
from django.utils.translation import gettext_lazy

from base.filters import ChoiceFilter, FilterSet, SearchFilter
from base.text import folded_matches, search_terms
from people.models import Membership, Person, ResearchArea, ResearchGroup, RoleGroup

# What a visitor reads on a person's card and profile, searched as one text.
PERSON_SEARCH_FIELDS = (
    "name",
    "aliases",
    "position_title",
    "affiliations",
    "research_interests",
    "role_group__name",
    "research_areas__name",
    "education__degree",
    "education__field",
    "education__institution",
    "experience__title",
    "experience__organization",
    "awards__title",
    "departure__next_position",
)


def search_people(queryset, name, value):
    """Every word (or "quoted phrase") must start a word of what the visitor sees of a person:
    name, aliases, position, affiliations, interests, areas, education, experience, awards.
    "Hang" finds Hang Zhu, not the "hang" inside "Zhang"; "Tsinghua" finds its alumni.

    Folded in Python (base/text.py), as the stored paper texts are, so case and accents
    fold alike on every database: people are a few hundred rows at most, read in one query
    whatever the number of words."""
    return _folded_search(queryset, PERSON_SEARCH_FIELDS, value)


def search_groups(queryset, name, value):
    """As search_people: every word must start a word of the group's name or its one-sentence
    description."""
    return _folded_search(queryset, ("name", "short_description"), value)


def _folded_search(queryset, fields: tuple[str, ...], value: str):
    if not (terms := search_terms(value)):
        return queryset
    # One SELECT per field, joined by UNION ALL into one query: a single SELECT of every field
    # would return each person's educations times experiences times awards.
    matching = queryset.model.objects.filter(pk__in=queryset.values("pk")).order_by()
    first, *others = (
        matching.exclude(**{field: ""})
        .exclude(**{f"{field}__isnull": True})
        .values_list("pk", field)
        for field in fields
    )
    rows = first.union(*others, all=True) if others else first
    return queryset.filter(pk__in=folded_matches(rows, terms))


class PersonFilter(FilterSet):
    role = ChoiceFilter(
        field_name="role_group__slug",
        label=gettext_lazy("Role"),
        empty_label=gettext_lazy("Everyone"),
    )
    group = ChoiceFilter(
        method="filter_group",
        label=gettext_lazy("Research group"),
        empty_label=gettext_lazy("Any group"),
    )
    area = ChoiceFilter(
        method="filter_area",
        label=gettext_lazy("Research area"),
        empty_label=gettext_lazy("Any area"),
    )
    q = SearchFilter(method=search_people, label=gettext_lazy("Name or interest"))

    class Meta:
        model = Person
        fields = ["role", "group", "area", "q"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        roles = RoleGroup.objects.filter(people__is_published=True).distinct()
        self.filters["role"].extra["choices"] = list(roles.values_list("slug", "name"))
        # A site without research groups or areas offers neither filter.
        published = {
            "group": ResearchGroup.objects.published(),
            "area": ResearchArea.objects.published(),
        }
        for name, rows in published.items():
            self.filters[name].extra["choices"] = list(rows.values_list("slug", "name"))

    def filter_group(self, queryset, name, value):
        return queryset.in_groups(ResearchGroup.objects.filter(slug=value))

    def filter_area(self, queryset, name, value):
        return queryset.in_areas(ResearchArea.objects.filter(slug=value))


class Option(NamedTuple):
    value: str
    label: str
    count: int  # type: ignore[assignment]  # shadows tuple.count; the templates read it
    selected: bool


def facet_options(filterset: PersonFilter) -> dict[str, list[Option]]:
    """The research group and area options, each with its number of people under the other
    filters (a group counts its current members); an option without people only while chosen.
    One query per filter the site offers, none for one it does not."""
    options: dict[str, list[Option]] = {}
    for name in ("group", "area"):
        choices = filterset.filters[name].extra["choices"]
        if not choices:
            continue
        people = filterset.queryset_without(name)
        if name == "group":
            rows = (
                Membership.objects.current()
                .filter(person__in=people.values("pk"))
                .values_list("group__slug")
                .annotate(count=Count("person", distinct=True))
            )
        else:
            rows = (
                people.filter(research_areas__isnull=False)
                .values_list("research_areas__slug")
                .annotate(count=Count("pk", distinct=True))
            )
        counts = dict(rows.order_by())
        chosen = filterset.form.cleaned_data.get(name)
        options[name] = [
            Option(slug, label, counts.get(slug, 0), slug == chosen)
            for slug, label in choices
            if counts.get(slug) or slug == chosen
        ]
    return options
