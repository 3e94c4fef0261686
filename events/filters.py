"""The filters of /events/, its feeds and /api/events/: kind, year, research group, speaker."""

from django.utils.translation import gettext_lazy

from base.filters import ChoiceFilter, FilterSet, MultipleChoiceFilter
from events.models import Event
from people.models import Person, ResearchGroup
from publications.filters import (
    Facet,
    MultipleIntegerFilter,
    count_by,
    facet,
    published_choices,
)


class EventFilter(FilterSet):
    kind = MultipleChoiceFilter(choices=Event.Kind.choices, label=gettext_lazy("Kind"))
    year = MultipleIntegerFilter(
        field_name="starts_at__year", lookup_expr="in", label=gettext_lazy("Year")
    )
    group = MultipleChoiceFilter(method="filter_group", label=gettext_lazy("Research group"))
    person = ChoiceFilter(
        method="filter_person", label=gettext_lazy("Speaker"), empty_label=gettext_lazy("Anyone")
    )

    class Meta:
        model = Event
        fields = ["kind", "year", "group", "person"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Read when first needed: a page that is not narrowed by group or person, and shows no
        # group facet, pays no query for them.
        self.filters["group"].extra["choices"] = published_choices(ResearchGroup)
        self.filters["person"].extra["choices"] = published_choices(Person)

    def filter_group(self, queryset, name, value):
        return queryset.of_group(ResearchGroup.objects.filter(slug__in=value))

    def filter_person(self, queryset, name, value):
        return queryset.filter(speaker__profile__slug=value)


def event_facets(filterset: EventFilter) -> dict[str, Facet]:
    """Kind, year and (where the site has groups) research group, each counted under the other
    filters: one aggregate query per facet, whatever the number of events."""
    cleaned = filterset.form.cleaned_data
    years = count_by(filterset, "starts_at__year", "year")
    found = {
        "kind": facet(
            "kind",
            gettext_lazy("Kind"),
            Event.Kind.choices,
            count_by(filterset, "kind", "kind"),
            set(cleaned.get("kind") or []),
            counted="events",
        ),
        "year": facet(
            "year",
            gettext_lazy("Year"),
            [(year, str(year)) for year in sorted(years, reverse=True)],
            years,
            set(cleaned.get("year") or []),
            counted="events",
        ),
    }
    if groups := filterset.filters["group"].extra["choices"]():
        found["group"] = facet(
            "group",
            gettext_lazy("Research group"),
            groups,
            count_by(filterset, "group__slug", "group"),
            set(cleaned.get("group") or []),
            counted="events",
        )
    return found
