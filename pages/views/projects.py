"""/projects/: the lab's projects, a page each with its people, funding, papers, datasets,
software and news, and their feed."""

import datetime

from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.translation import gettext

from base.site_cache import cached, true_until
from base.structured_data import json_ld_script
from news.models import NewsItem
from pages.views.faceted import faceted_list
from projects.filters import ProjectFilter, facets
from projects.models import Grant, Project
from projects.structured_data import funding_json_ld, project_json_ld

PER_PAGE = 25
# How many of a person's, group's or area's projects their page lists; the rest are a link away.
SECTION_PROJECTS = 10
PROJECT_NEWS = 5


def listed_projects(queryset) -> list[Project]:
    """The first projects of `queryset`, ready to list: two queries whatever their number (one
    when there are none)."""
    return list(queryset.published().for_listing()[:SECTION_PROJECTS])


def section_projects(owner: tuple[str, int], queryset) -> list[Project]:
    """A profile's, group's or area's first projects (`owner`: ("person", pk)...), kept until a
    project, a grant, a funder or a person changes (their writes name no narrower scope), so a
    page rendered anew pays no query for a section most pages leave out."""
    return cached("section-projects", owner, lambda: listed_projects(queryset), scopes={"people"})


def index(request):
    filterset = ProjectFilter(request.GET, queryset=Project.objects.published().for_listing())
    context = faceted_list(
        request, filterset, facets=facets, per_page=PER_PAGE, heading=gettext("Projects")
    )
    response = render(request, "projects/project_list.html", context)
    # Current and past change at midnight, not with a write: kept no longer than today.
    true_until(response, next_midnight())
    return response


def next_midnight() -> datetime.datetime:
    tomorrow = timezone.localdate() + datetime.timedelta(days=1)
    return timezone.make_aware(datetime.datetime.combine(tomorrow, datetime.time()))


def detail(request, slug):
    project = get_object_or_404(Project.objects.visible_to(request.user).for_page(), slug=slug)
    return render(
        request,
        "projects/project_detail.html",
        {
            "project": project,
            "json_ld": json_ld_script(project_json_ld(project, request=request)),
            "news_items": project_news(project),
        },
    )


def project_news(project: Project) -> list:
    """The news that names one of the project's papers (NewsItem.publications): news has no
    link to projects of its own, and a paper's news is its project's news too
    (docs/decisions/projects.md). One query."""
    papers = Project.publications.through.objects.filter(project=project).values("publication")
    mentions = NewsItem.publications.through.objects.filter(publication__in=papers)
    return list(
        NewsItem.objects.published()
        .filter(pk__in=mentions.values("newsitem"))
        .for_listing()[:PROJECT_NEWS]
    )


def paper_funding(paper) -> dict:
    """What a paper's page shows of its funding (the grants it acknowledges, with their funders,
    also as its JSON-LD `funding`) and the published projects it came of: two queries."""
    grants = list(Grant.objects.filter(publications=paper).for_papers())
    return {
        "grants": grants,
        "funding": funding_json_ld(grants),
        "projects": list(
            Project.objects.published().filter(publications=paper).only("title", "slug")
        ),
    }
