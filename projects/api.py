"""/api/projects/ and /api/funders/: the projects as data, with the list page's filters
(projects/filters.py), and the funders they name."""

from django.http import HttpRequest
from ninja import Field, Router, Schema

from base.api import (
    ERRORS,
    NamedPageOut,
    PageOut,
    add_detail,
    add_filtered_list,
    credit_out,
    page_link,
    titled_page,
)
from projects.filters import ProjectFilter
from projects.models import Funder, Grant, Project

router = Router(tags=["projects"])

PER_PAGE = 25


class FunderOut(Schema):
    slug: str = Field(description="What /api/projects/?funder= and /publications/?funder= take.")
    name: str
    registry_id: str = Field(
        description='Its Crossref Funder Registry DOI ("10.13039/…"), "" when not listed there.'
    )


class GrantOut(Schema):
    funder: FunderOut
    award_number: str = Field(description='"" when the grant has none.')
    title: str
    url: str


class ProjectPersonOut(Schema):
    name: str
    role: str = Field(description="Principal investigator, co-investigator, researcher...")
    orcid: str = Field(description='The ORCID iD, "" when not known.')
    profile: str | None = Field(description="Their profile's address, when a member with one.")


class ProjectSummaryOut(Schema):
    slug: str
    title: str
    url: str = Field(description="The project's page on this site.")
    start: str | None = Field(description='ISO 8601 at its precision: "2026", "2026-07".')
    end: str | None = Field(description="None while it runs with no end date.")
    status: str = Field(description='"current" or "past".')
    grants: list[GrantOut]


class ProjectOut(ProjectSummaryOut):
    summary: str = Field(description="Markdown.")
    website: str
    people: list[ProjectPersonOut]
    publications: list[NamedPageOut] = Field(description="The papers that came of it.")
    outputs: list[NamedPageOut] = Field(description="Its datasets and software.")


class ProjectPage(PageOut[ProjectSummaryOut]):
    pass


def funder_data(funder: Funder) -> dict:
    return {"slug": funder.slug, "name": funder.name, "registry_id": funder.registry_id}


def grant_data(grant: Grant) -> dict:
    return {
        "funder": funder_data(grant.funder),
        "award_number": grant.award_number,
        "title": grant.title,
        "url": grant.url,
    }


def project_summary(project: Project, request: HttpRequest) -> dict:
    """Reads the grants Project.objects.for_listing() prefetched."""
    return {
        **titled_page(project, request),
        "start": project.start.isoformat() if project.start else None,
        "end": project.end.isoformat() if project.end else None,
        "status": "past" if project.is_past() else "current",
        "grants": [grant_data(grant) for grant in project.grants.all()],
    }


add_filtered_list(
    router,
    "/projects/",
    operation_id="list_projects",
    summary="Projects, filtered as on /projects/",
    description="In the list page's order (newest start first), so page N is the page's page N.",
    filterset_class=ProjectFilter,
    rows=lambda: Project.objects.published().for_listing(),
    row=project_summary,
    page=ProjectPage,
    per_page=PER_PAGE,
)


@add_detail(router, "/projects/{slug}/", ProjectOut, lambda: Project.objects.published().for_page())
def get_project(project: Project, request: HttpRequest) -> dict:
    """One project, with its people, funding, papers, datasets and software"""
    # for_page's prefetches:
    papers = project.listed_publications  # type: ignore[attr-defined]
    outputs = project.listed_outputs  # type: ignore[attr-defined]
    return {
        **project_summary(project, request),
        "summary": project.summary,
        "website": project.url,
        "people": [
            {**credit_out(row, request), "role": row.get_role_display()}
            for row in project.people.all()
        ],
        "publications": [page_link(paper, paper.title, request) for paper in papers],
        "outputs": [page_link(output, output.title, request) for output in outputs],
    }


@router.get(
    "/funders/",
    response={200: list[FunderOut], **ERRORS},
    operation_id="list_funders",
    summary="Every funder the projects and papers name",
)
def list_funders(request):
    return [funder_data(funder) for funder in Funder.objects.order_by("name")]
