import django_filters
from django import forms

from directory.filters import FilterSet, YearFilter
from news.models import NewsItem
from people.models import Person


class NewsFilter(FilterSet):
    year = YearFilter(method="filter_year", label="Year")
    person = django_filters.ChoiceFilter(
        field_name="people__slug", label="Person", empty_label="Anyone"
    )

    class Meta:
        model = NewsItem
        fields = ["year", "person"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The years that have news, for the select; any other year simply matches nothing.
        years = [(year, year) for year in NewsItem.objects.published().years()]
        self.filters["year"].extra["widget"] = forms.Select(choices=[("", "Any year"), *years])
        people = Person.objects.published().filter(news_items__isnull=False).distinct()
        self.filters["person"].extra["choices"] = list(
            people.order_by("name").values_list("slug", "name")
        )

    def filter_year(self, queryset, name, value):
        return queryset.in_year(int(value))
