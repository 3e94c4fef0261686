"""The pages that compose several apps, and the site's plain endpoints.

Each app's own views show that app's rows. A page that shows rows of several apps (the home
page; a profile with its publications and news; a publication with the news about it) is built
here, above the apps, so no app imports one above it (docs/architecture.md).
"""

from dataclasses import dataclass, field
from functools import cached_property

from django.core.exceptions import ValidationError
from django.db import DatabaseError, connection
from django.db.models import Count, F, QuerySet
from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import require_safe

from directory.charts import year_chart
from directory.filters import SearchField
from directory.site_cache import cached
from news.filters import search_news
from news.models import NewsItem
from people.filters import search_people
from people.models import Person
from publications import exports
from publications.filters import search_publications
from publications.models import Publication

HOME_NEWS = 5
HOME_PUBLICATIONS = 6
# A profile shows a short selection, featured first; all of them are the publication list
# filtered by the person.
PROFILE_SELECTED = 8
PROFILE_NEWS = 10
RELATED_PUBLICATIONS = 10
PUBLICATION_NEWS = 5
# The site search shows this many of each kind, and links to the list that has them all.
SEARCH_SHOWN = 10


def home(request):
    publications = Publication.objects.published().for_listing()
    featured = list(publications.filter(is_featured=True)[:HOME_PUBLICATIONS])
    recent = list(publications.filter(is_featured=False)[:HOME_PUBLICATIONS])
    exports.with_citations([*featured, *recent])
    return render(
        request,
        "home.html",
        {
            "news_items": NewsItem.objects.published()
            .for_listing()
            .with_publications()[:HOME_NEWS],
            "featured": featured,
            "recent": recent,
            "people": Person.objects.published().for_directory().current(),
        },
    )


def profile(request, slug):
    """/people/<slug>/: the person, a selection of their publications with a chart of all of
    them by year, their co-authors and news."""
    person = get_object_or_404(Person.objects.visible_to(request.user).for_profile(), slug=slug)
    publications = Publication.objects.published().authored_by(person)
    # Aggregates over every paper of the person (thousands for a prolific member of a
    # department), and the selection, which sorts all of them to find the first few: kept,
    # with the selection's "Cite" blocks, until the next change.
    per_year, coauthors, selected = cached(
        "profile-aggregates",
        person.pk,
        lambda: (
            dict(
                publications.order_by()
                .values_list("year")
                .annotate(count=Count("pk"))
                .values_list("year", "count")
            ),
            list(publications.coauthors_of(person)),
            exports.with_citations(
                publications.for_listing().order_by(
                    "-is_featured", F("year").desc(nulls_last=True), "title"
                )[:PROFILE_SELECTED]
            ),
        ),
    )
    all_of_them = f"{reverse('publications:index')}?author={person.slug}"
    return render(
        request,
        "people/person_detail.html",
        {
            "person": person,
            "publications": selected,
            "publication_count": sum(per_year.values()),
            "all_publications_url": all_of_them,
            "chart": year_chart(
                per_year,
                link=lambda year: f"{all_of_them}&year_min={year}&year_max={year}",
            ),
            "coauthors": coauthors,
            "news_items": NewsItem.objects.published().about(person)[:PROFILE_NEWS],
        },
    )


def publication(request, slug):
    """/publications/<slug>/: the publication, its members' other papers and its news."""
    publication = get_object_or_404(
        Publication.objects.visible_to(request.user).for_listing(), slug=slug
    )
    members = publication.published_members
    # Sorting every paper of a prolific member to find the newest ten reads thousands of rows:
    # kept, with their "Cite" blocks, until the next change.
    related = cached(
        "related-publications",
        publication.pk,
        lambda: exports.with_citations(
            Publication.objects.published()
            .for_listing()
            .authored_by(members)
            .exclude(pk=publication.pk)[:RELATED_PUBLICATIONS]
        ),
    )
    exports.with_citations([publication])
    return render(
        request,
        "publications/publication_detail.html",
        {
            "publication": publication,
            "members": members,
            "related": related,
            "news_items": NewsItem.objects.published().mentioning(publication)[:PUBLICATION_NEWS],
        },
    )


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
    """/search/?q=: people, publications and news at once, grouped by kind.

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
    return render(
        request,
        "search.html",
        {"query": words, "problem": problem, "groups": groups, "shown": SEARCH_SHOWN},
    )


@require_safe
@cache_control(public=True, max_age=24 * 3600)
def robots_txt(request):
    """Crawlers may read every public page, but not the admin, and not every combination of
    filters as a download."""
    lines = [
        "User-agent: *",
        "Disallow: /admin/",
        f"Disallow: {reverse('publications:index')}export.",
        "",
        f"Sitemap: {request.build_absolute_uri(reverse('sitemap'))}",
    ]
    return HttpResponse("\n".join(lines) + "\n", content_type="text/plain; charset=utf-8")


@require_safe
@never_cache
def healthz(request):
    """For load balancers: 200 when the database answers, 503 when it does not."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        return JsonResponse({"status": "error", "database": "unreachable"}, status=503)
    return JsonResponse({"status": "ok", "database": "ok"})
