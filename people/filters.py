from directory.filters import ChoiceFilter, FilterSet, SearchFilter
from directory.text import NAME_BREAKS, word_start
from people.models import Person, RoleGroup


def search_people(queryset, name, value):
    """Every word must start a word of the name, an alias or a research interest: "Hang" finds
    Hang Zhu, not the "hang" inside "Zhang"."""
    for word in value.split():
        queryset = queryset.filter(
            word_start("name", word, breaks=NAME_BREAKS)
            | word_start("aliases", word)
            | word_start("research_interests", word)
        )
    return queryset


class PersonFilter(FilterSet):
    group = ChoiceFilter(field_name="role_group__slug", label="Group", empty_label="Everyone")
    q = SearchFilter(method=search_people, label="Name or interest")

    class Meta:
        model = Person
        fields = ["group", "q"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        groups = RoleGroup.objects.filter(people__is_published=True).distinct()
        self.filters["group"].extra["choices"] = list(groups.values_list("slug", "name"))
