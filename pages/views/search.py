"""/search/: people, research groups, publications and news at once."""

from dataclasses import dataclass, field
from functools import cached_property

from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.shortcuts import render
from django.urls import reverse

from directory.filters import SearchField
from news.filters import search_news
from news.models import NewsItem
from pages.context_processors import current_lab
from people.filters import search_groups, search_people
from people.models import Person, ResearchGroup
from publications.filters import search_publications
from publications.models import Publication

# The site search shows this many of each kind, and links to the list that has them all.
SEARCH_SHOWN = 10


@dataclass
class SearchGroup:
    """One kind of result: how many match, the first few, and the list that shows them all."""

    kind: str
    title: str
    queryset: QuerySet = field(repr=False)
    list_url: str

    @cached_property
    def count(self) -> int:
        return self.queryset.count()

    @cached_property
    def first(self) -> list:
        return list(self.queryset[:SEARCH_SHOWN]) if self.count else []


def search(request):
    """/search/?q=: people, research groups, publications and news at once, grouped by kind.

    Each kind is searched by its own list's search function, so "all N" leads to that list
    with the same words and the same results. Words match word starts: "Hang" finds Hang Zhu,
    not the end of "Zhang".
    """
    field = SearchField(required=False)
    query = request.GET.get("q", "")
    try:
        words = field.clean(query)
        problem = ""
    except ValidationError as error:
        words, problem = "", " ".join(error.messages)
    groups = []
    if words:
        people = search_people(Person.objects.published().for_directory(), "q", words)
        publications = search_publications(
            Publication.objects.published().for_listing(), "q", words
        )
        news = search_news(
            NewsItem.objects.published().for_listing().with_publications(), "q", words
        )
        groups = [
            SearchGroup("people", "People", people, reverse("people:index")),
            SearchGroup(
                "publications", "Publications", publications, reverse("publications:index")
            ),
            SearchGroup("news", "News", news, reverse("news:index")),
        ]
        # Only a department's search looks for groups: the header's lab row says whether there
        # are any, so a one-lab site's search runs no query for them.
        if current_lab(request).has_groups:
            research_groups = search_groups(
                ResearchGroup.objects.published().for_index(), "q", words
            )
            groups.insert(
                1,
                SearchGroup("groups", "Research groups", research_groups, reverse("groups:index")),
            )
    return render(
        request,
        "search.html",
        {"query": words, "problem": problem, "groups": groups, "shown": SEARCH_SHOWN},
    )
