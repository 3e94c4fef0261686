from django import forms
from django.db.models import Q
from django.utils.translation import gettext, gettext_lazy

from base.filters import ChoiceFilter, FilterSet, SearchFilter, YearFilter
from base.site_cache import cached
from base.text import folded_matches, search_terms
from news.models import NewsItem
from people.models import Person, ResearchGroup
from publications.filters import published_choices


def search_news(queryset, name, value):
    """Every word (or "quoted phrase") must start a word of the title or the text, folding
    case and accents, as in the site search. Folded in Python: news items are few, read in one
    query whatever the number of words."""
    if not (terms := search_terms(value)):
        return queryset
    rows = NewsItem.objects.filter(pk__in=queryset.values("pk")).values_list("pk", "title", "body")
    texts = ((pk, f"{title}\n{body}") for pk, title, body in rows)
    return queryset.filter(pk__in=folded_matches(texts, terms))


def news_choices() -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    years = [(year, year) for year in NewsItem.objects.published().years()]
    people = Person.objects.published().filter(news_items__isnull=False).distinct()
    return years, list(people.order_by("name").values_list("slug", "name"))


class NewsFilter(FilterSet):
    year = YearFilter(method="filter_year", label=gettext_lazy("Year"))
    person = ChoiceFilter(
        field_name="people__slug", label=gettext_lazy("Person"), empty_label=gettext_lazy("Anyone")
    )
    group = ChoiceFilter(
        method="filter_group",
        label=gettext_lazy("Research group"),
        empty_label=gettext_lazy("Any group"),
    )

    q = SearchFilter(method=search_news, label=gettext_lazy("Words"))

    class Meta:
        model = NewsItem
        fields = ["q", "year", "person", "group"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The years that have news, for the select (any other year simply matches nothing), and
        # the people in the news: each reads every news item, so kept until a change of
        # anyone's name or published state (a write of news names no narrower scope: it moves
        # every cache), not of a paper.
        years, people = cached("news-choices", None, news_choices, scopes={"people"})
        self.filters["year"].extra["widget"] = forms.Select(
            choices=[("", gettext("Any year")), *years]
        )
        self.filters["person"].extra["choices"] = [*people, *self.asked_people(people)]
        # Read when first needed: a site without research groups never shows the control, so a
        # page or feed that is not narrowed by group pays no query for them.
        self.filters["group"].extra["choices"] = published_choices(ResearchGroup)

    def asked_people(self, in_the_news: list[tuple[str, str]]) -> list[tuple[str, str]]:
        """A published member asked for who is not in the news: their profile links their news
        feed, which is empty, not a refusal. One query, only when such a slug is given."""
        values = self.data.getlist("person") if hasattr(self.data, "getlist") else []
        known = {slug.casefold() for slug, _ in in_the_news}
        if not (asked := [value for value in values if value and value.casefold() not in known]):
            return []
        matches = Q()
        for value in asked:
            matches |= Q(slug__iexact=value)
        return list(Person.objects.published().filter(matches).values_list("slug", "name"))

    def filter_year(self, queryset, name, value):
        return queryset.in_year(int(value))

    def filter_group(self, queryset, name, value):
        return queryset.of_group(ResearchGroup.objects.filter(slug=value))
