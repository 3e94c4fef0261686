"""The pages that compose several apps, and the site's plain endpoints.

Each app's own views show that app's rows. A page that shows rows of several apps (the home
page; a profile with its publications and news; a publication with the news about it) is built
here, above the apps, so no app imports one above it (docs/architecture.md).
"""

from dataclasses import dataclass, field
from functools import cached_property
from itertools import groupby

from django.core.exceptions import ValidationError
from django.db import DatabaseError, connection
from django.db.models import F, Prefetch, QuerySet
from django.http import (
    Http404,
    HttpResponse,
    HttpResponsePermanentRedirect,
    JsonResponse,
    QueryDict,
)
from django.shortcuts import get_object_or_404, render
from django.template import Context
from django.template.loader import get_template, render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import require_safe

from config.context_processors import current_lab
from directory.charts import year_chart
from directory.filters import SearchField
from directory.pdf_renders import pdf_response
from directory.site_cache import cached, cached_each
from news.filters import search_news
from news.models import NewsItem
from people.filters import search_groups, search_people
from people.models import Membership, Person, ResearchArea, ResearchGroup
from publications import exports
from publications.entries import listed
from publications.filters import search_publications
from publications.models import Publication
from publications.views import listing_context

HOME_NEWS = 5
HOME_PUBLICATIONS = 6
# A profile shows a short selection, featured first; all of them are the publication list
# filtered by the person.
PROFILE_SELECTED = 8
PROFILE_NEWS = 10
PROFILE_COLLABORATORS = 10
RELATED_PUBLICATIONS = 10
PUBLICATION_NEWS = 5
GROUP_NEWS = 10
# An area's page lists its newest papers; all of them are the publication list's area filter.
AREA_PUBLICATIONS = 50
# The site search shows this many of each kind, and links to the list that has them all.
SEARCH_SHOWN = 10


def home(request):
    publications = Publication.objects.published().for_listing()
    # The newest featured papers are found by walking the list order past every other paper
    # (15 ms at 200,000 papers): kept until the next change.
    featured, recent = cached(
        "home-publications",
        None,
        lambda: (
            listed(publications.filter(is_featured=True)[:HOME_PUBLICATIONS]),
            listed(publications.filter(is_featured=False)[:HOME_PUBLICATIONS]),
        ),
    )
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
    pk, is_published = get_object_or_404(
        Person.objects.visible_to(request.user).values_list("pk", "is_published"), slug=slug
    )
    # The person with every row the profile shows (eleven queries, most of a rendering's time):
    # a published one is the same for every visitor, so kept until the next change. A draft,
    # which only staff preview, is read every time.
    person = (
        cached("profile-person", pk, lambda: profile_person(pk))
        if is_published
        else profile_person(pk)
    )
    if person is None:  # deleted since its row was read
        raise Http404("No person matches the given query.")
    publications = Publication.objects.published().authored_by(person)
    # Aggregates over every paper of the person (thousands for a prolific member of a
    # department), and the selection, which sorts all of them to find the first few: kept
    # until the next change (the selection's entries are kept by publications.entries).
    per_year, coauthors, external_coauthors, selected = cached(
        "profile-aggregates",
        person.pk,
        lambda: (
            publications.count_per_year(),
            list(publications.coauthors_of(person)),
            list(publications.external_coauthors()[:PROFILE_COLLABORATORS]),
            listed(
                publications.order_by("-is_featured", F("year").desc(nulls_last=True), "title")[
                    :PROFILE_SELECTED
                ]
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
            # Drawn only when the profile's kept chart is out of date.
            "chart": SimpleLazyObject(
                lambda: year_chart(
                    per_year,
                    link=lambda year: f"{all_of_them}&year_min={year}&year_max={year}",
                )
            ),
            "coauthors": coauthors,
            "external_coauthors": external_coauthors,
            "news_items": NewsItem.objects.published().about(person)[:PROFILE_NEWS],
        },
    )


def profile_person(pk: int) -> Person | None:
    return Person.objects.for_profile().filter(pk=pk).first()


@dataclass(frozen=True)
class PublicationGroup:
    type: str
    label: str
    publications: list[Publication]


def by_type(publications) -> list[PublicationGroup]:
    """Publications under their type's heading, in the order the types are declared
    (conference papers, journal articles, ...), each group newest first."""
    groups: dict[str, list[Publication]] = {value: [] for value in Publication.Type.values}
    for publication in publications:
        groups[publication.type].append(publication)
    return [
        PublicationGroup(value, label, groups[value])
        for value, label in Publication.Type.choices
        if groups[value]
    ]


def cv_context(request, slug) -> dict:
    """What a CV shows, from the rows the profile shows: a fixed number of queries."""
    person = get_object_or_404(Person.objects.visible_to(request.user).for_profile(), slug=slug)
    publications = Publication.objects.published().authored_by(person).for_listing()
    return {"person": person, "publication_groups": by_type(publications)}


def cv(request, slug):
    """/people/<slug>/cv/: the profile as a CV, laid out for printing."""
    return render(request, "people/person_cv.html", cv_context(request, slug))


def cv_pdf(request, slug):
    """/people/<slug>/cv.pdf: the same page as the printable CV, printed by WeasyPrint, at
    most once per change and a few at a time (directory/pdf_renders.py)."""

    def render() -> bytes:
        context = {**cv_context(request, slug), "for_pdf": True}
        html = render_to_string("people/person_cv.html", context, request=request)
        # Imported here: WeasyPrint loads Pango when imported, and a site without it serves
        # every other page.
        from directory.documents import pdf_from_html

        return pdf_from_html(html, site_url=request.build_absolute_uri("/"))

    return pdf_response(
        request, name="cv-pdf", parts=slug, filename=f"{slug}-cv.pdf", render=render
    )


def group(request, slug):
    """/groups/<slug>/: the group's people by role, its papers (its members' while they were
    members, with the publication list's filters), its news and its alumni."""
    areas = Prefetch("areas", queryset=ResearchArea.objects.published())
    group = get_object_or_404(
        ResearchGroup.objects.visible_to(request.user).prefetch_related(areas), slug=slug
    )
    memberships = (
        group.memberships.listed()
        .select_related("person__role_group", "person__departure")
        .prefetch_related("person__links")
    )
    people_by_role = [
        (Membership.Role(role).label, [membership.person for membership in rows])
        for role, rows in groupby(memberships, key=lambda membership: membership.role)
    ]
    publications = Publication.objects.published().of_groups(group).for_listing()
    listing = listing_context(request, publications, scope=("group", group.pk), without=("group",))
    # Its exports and feed are the publication list's, narrowed to the group.
    scoped = QueryDict(mutable=True)
    scoped["group"] = group.slug
    export_query = f"?{scoped.urlencode()}" + listing["filters_query"].replace("?", "&", 1)
    return render(
        request,
        "groups/group_detail.html",
        {
            **listing,
            "group": group,
            "people_by_role": people_by_role,
            "alumni": Person.objects.published()
            .former_members_of(group)
            .for_directory()
            .order_by("name"),
            "news_items": NewsItem.objects.published().of_group(group).for_listing()[:GROUP_NEWS],
            "export_query": export_query,
        },
    )


def area(request, slug):
    """/areas/<slug>/: the research area's people, groups and newest papers, with a chart of
    all its papers by year."""
    area = get_object_or_404(ResearchArea.objects.visible_to(request.user), slug=slug)
    publications = Publication.objects.published().in_areas(area)
    # Over every paper of the area, as a profile's: kept until the next change.
    per_year, newest = cached(
        "area-publications",
        area.pk,
        lambda: (publications.count_per_year(), listed(publications[:AREA_PUBLICATIONS])),
    )
    all_of_them = f"{reverse('publications:index')}?area={area.slug}"
    return render(
        request,
        "areas/area_detail.html",
        {
            "area": area,
            "people": Person.objects.published().in_areas(area).for_directory(),
            "groups": ResearchGroup.objects.published().filter(areas=area),
            "publications": newest,
            "publication_count": sum(per_year.values()),
            "all_publications_url": all_of_them,
            "chart": year_chart(
                per_year,
                link=lambda year: f"{all_of_them}&year_min={year}&year_max={year}",
            ),
        },
    )


def publication(request, slug):
    """/publications/<slug>/: the publication, its members' other papers and its news.

    Its parts (publication_parts) are most of the page's cost and the same for every visitor
    until the next change, so they are kept per change stamp like a list's entries: a page
    rendered anew then costs the paper's row and what base.html shows. A draft, which only
    staff preview, is rendered every time and never kept."""
    pk, title, is_published = get_object_or_404(
        Publication.objects.visible_to(request.user).values_list("pk", "title", "is_published"),
        slug=slug,
    )
    parts = kept_publication_parts(request, pk) if is_published else publication_parts(request, pk)
    if parts is None:  # deleted since its row was read
        raise Http404("No publication matches the given query.")
    return render(request, "publications/publication_detail.html", {"title": title, "parts": parts})


# The parts of a paper's page, each a template in templates/publications/publication_detail/.
PUBLICATION_PARTS = ("description", "meta", "article")


def publication_parts(request, pk: int) -> dict[str, SafeString] | None:
    """The parts of the page of the paper `pk` (published or not); None if it was deleted.
    Rendered with a plain Context: they show nothing of the visitor, and the page's context
    processors are base.html's."""
    paper = Publication.objects.for_listing().filter(pk=pk).first()
    if paper is None:
        return None
    exports.with_citations([paper])
    members = paper.published_members
    # Sorting every paper of a prolific member to find the newest ten reads thousands of rows:
    # shared by the processes until the next change (their entries are kept too).
    related = cached(
        "related-publications",
        pk,
        lambda: listed(
            Publication.objects.published()
            .authored_by(members)
            .exclude(pk=pk)[:RELATED_PUBLICATIONS]
        ),
    )
    context = Context(
        {
            "publication": paper,
            "members": members,
            "related": related,
            "news_items": NewsItem.objects.published().mentioning(paper)[:PUBLICATION_NEWS],
            "request": request,
        }
    )
    return {
        # A template's output, escaped by it.
        name: mark_safe(
            get_template(f"publications/publication_detail/{name}.html")
            .template.render(context)  # type: ignore[attr-defined]
            .strip()
        )
        for name in PUBLICATION_PARTS
    }


def kept_publication_parts(request, pk: int) -> dict[str, SafeString] | None:
    """The parts of a published paper's page, kept until the next change in each process
    (site_cache.cached_each), per site address: its JSON-LD and COinS spans hold absolute
    links."""

    def render(ids: list[tuple[int, str]]) -> dict[tuple[int, str], str]:
        parts = publication_parts(request, pk) or {}
        return {(pk, name): parts[name] for _, name in ids if name in parts}

    kept = cached_each(
        "publication-page",
        parts=request.build_absolute_uri("/"),
        ids=[(pk, name) for name in PUBLICATION_PARTS],
        render=render,
        size_setting="SITE_CACHE_LOCAL_PAPER_PAGES",
    )
    if len(kept) < len(PUBLICATION_PARTS):
        return None
    return {name: mark_safe(value) for (_, name), value in kept.items()}


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


@require_safe
@cache_control(public=True, max_age=24 * 3600)
def favicon(request):
    """/favicon.ico, which browsers, feed readers and crawlers ask for whatever the page's
    <link rel="icon"> says: the site's icon, not a 404 page rendered (and logged) each time."""
    return HttpResponsePermanentRedirect(static("img/favicon.svg"))


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
