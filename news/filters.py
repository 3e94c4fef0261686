import django_filters

from directory.filters import FilterSet
from directory.partial_dates import FIRST_YEAR, LAST_YEAR
from news.models import NewsItem
from people.models import Person


class NewsFilter(FilterSet):
    year = django_filters.NumberFilter(
        method="filter_year", label="Year", min_value=FIRST_YEAR, max_value=LAST_YEAR
    )
    person = django_filters.ChoiceFilter(
        field_name="people__slug", label="Person", empty_label="Anyone"
    )

    class Meta:
        model = NewsItem
        fields = ["year", "person"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The years that have news, for the select; any other year simply matches nothing.
        self.year_choices = list(NewsItem.objects.published().years())
        people = Person.objects.published().filter(news_items__isnull=False).distinct()
        self.filters["person"].extra["choices"] = list(
            people.order_by("name").values_list("slug", "name")
        )

    def filter_year(self, queryset, name, value):
        return queryset.in_year(int(value))
