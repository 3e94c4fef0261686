import django_filters
from django.db.models import Q

from directory.filters import FilterSet, SearchFilter
from people.models import Person, RoleGroup


def search_people(queryset, name, value):
    """Every word must appear in the name, an alias or a research interest."""
    for word in value.split():
        queryset = queryset.filter(
            Q(name__icontains=word)
            | Q(aliases__icontains=word)
            | Q(research_interests__icontains=word)
        )
    return queryset


class PersonFilter(FilterSet):
    group = django_filters.ChoiceFilter(
        field_name="role_group__slug", label="Group", empty_label="Everyone"
    )
    q = SearchFilter(method=search_people, label="Name or interest")

    class Meta:
        model = Person
        fields = ["group", "q"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        groups = RoleGroup.objects.filter(people__is_published=True).distinct()
        self.filters["group"].extra["choices"] = list(groups.values_list("slug", "name"))
