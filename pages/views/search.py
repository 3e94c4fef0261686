"""/search/: people, research groups, publications, datasets and software, and news at once."""

from dataclasses import dataclass, field
from functools import cached_property

from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.shortcuts import render
from django.urls import reverse
from django.utils.safestring import SafeString
from django.utils.translation import gettext

from base import translations
from base.filters import SearchField
from base.text import marked, search_terms
from news.filters import search_news
from news.models import NewsItem
from outputs.filters import search_outputs
from outputs.models import Output
from pages.context_processors import current_lab
from people.filters import search_groups, search_people
from people.models import Person, ResearchGroup
from publications.filters import search_publications
from publications.models import Publication
from publications.related import topic_ids

# The site search shows this many of each kind, and links to the list that has them all.
SEARCH_SHOWN = 5


@dataclass
class SearchRow:
    """One result on one line: what it is, its title with the words found marked, its year and
    the lab's people it names."""

    kind: str
    title: SafeString
    url: str
    year: int | None = None
    people: list[str] = field(default_factory=list)
    # The title's language when it is not the page's (base/translations.py), else "".
    lang: str = ""


def row_of(kind: str, found, terms: list[str]) -> SearchRow:
    """The row of a person, research group, publication, dataset or software, or news item, from
    the querysets the search gives them (their people prefetched): no query."""
    if kind == "people":
        return SearchRow(
            found.position_title or gettext("Person"),
            marked(found.name, terms),
            found.get_absolute_url(),
        )
    if kind == "groups":
        leaders = [leadership.person.name for leadership in found.current_leaders]
        url = found.get_absolute_url()
        name = translations.shown(found, "name")
        return SearchRow(
            gettext("Research group"), marked(name.text, terms), url, people=leaders, lang=name.lang
        )
    if kind == "publications":
        members = [
            author.name
            for author in found.authorships.all()
            if author.person and author.person.is_published
        ]
        kind_name = found.venue.short_name if found.venue else found.get_type_display()
        url = found.get_absolute_url()
        title = translations.shown(found, "title")
        return SearchRow(
            kind_name, marked(title.text, terms), url, found.year, members, lang=title.lang
        )
    if kind == "outputs":
        # The creators who are members with a public profile (for_listing selected them).
        members = [creator.researcher.name for creator in found.creators.all() if creator.member]
        url = found.get_absolute_url()
        return SearchRow(
            found.get_kind_display(), marked(found.title, terms), url, found.year, members
        )
    people = [person.name for person in found.people.all()]
    title = translations.shown(found, "title")
    return SearchRow(
        found.get_kind_display(),
        marked(title.text, terms),
        found.href,
        found.date.year,
        people,
        lang=title.lang,
    )


@dataclass
class SearchGroup:
    """One kind of result: how many match, the first few, and the list that shows them all."""

    kind: str
    title: str
    queryset: QuerySet = field(repr=False)
    list_url: str
    terms: list[str] = field(default_factory=list)

    @cached_property
    def count(self) -> int:
        return self.queryset.count()

    @cached_property
    def first(self) -> list:
        return list(self.queryset[:SEARCH_SHOWN]) if self.count else []

    @cached_property
    def rows(self) -> list[SearchRow]:
        return [row_of(self.kind, found, self.terms) for found in self.first]


def topic_rows(words: str, terms: list[str], *, shown: list) -> list[SearchRow]:
    """The papers nearest the words' topic in the related papers' model (publications/related.py),
    whether or not they hold the words, apart from the publications `shown` already: none
    before the model is built. One query for the papers and one each for their authors, awards
    and links."""
    ids = topic_ids(words, apart={paper.pk for paper in shown})
    if not ids:
        return []
    papers = {p.pk: p for p in Publication.objects.published().for_listing().filter(pk__in=ids)}
    return [row_of("publications", papers[pk], terms) for pk in ids if pk in papers]


def search(request):
    """/search/?q=: people, research groups, publications, datasets and software, and news at
    once, grouped by kind.

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
    topic: list[SearchRow] = []
    if words:
        people = search_people(Person.objects.published().for_directory(), "q", words)
        publications = search_publications(
            Publication.objects.published().for_listing(), "q", words
        )
        news = search_news(NewsItem.objects.published().for_listing(), "q", words)
        terms = search_terms(words)
        papers = SearchGroup(
            "publications",
            gettext("Publications"),
            publications,
            reverse("publications:index"),
            terms,
        )
        groups = [
            SearchGroup("people", gettext("People"), people, reverse("people:index"), terms),
            papers,
            SearchGroup("news", gettext("News"), news, reverse("news:index"), terms),
        ]
        # Only a department's search looks for groups: the header's lab row says whether there
        # are any, so a one-lab site's search runs no query for them.
        if current_lab(request).has_groups:
            research_groups = search_groups(
                ResearchGroup.objects.published().for_index(), "q", words
            )
            groups.insert(
                1,
                SearchGroup(
                    "groups",
                    gettext("Research groups"),
                    research_groups,
                    reverse("groups:index"),
                    terms,
                ),
            )
        # Only a site with datasets or software looks for them (the header's lab row says).
        if current_lab(request).has_outputs:
            outputs = search_outputs(Output.objects.published().for_listing(), "q", words)
            groups.insert(
                groups.index(papers) + 1,
                SearchGroup(
                    "outputs",
                    gettext("Datasets and software"),
                    outputs,
                    reverse("outputs:index"),
                    terms,
                ),
            )
        # Beyond the publications the words found and the page shows (their first few).
        topic = topic_rows(words, terms, shown=papers.first)
    return render(
        request,
        "search.html",
        {
            "query": words,
            "problem": problem,
            "groups": groups,
            # Kinds with nothing found are left out, not listed as empty.
            "found": [group for group in groups if group.count],
            "topic": topic,
            "shown": SEARCH_SHOWN,
        },
    )
