"""/api/outputs/: the datasets and software as data, with the list page's filters
(outputs/filters.py)."""

from django.http import HttpRequest
from ninja import Field, Router, Schema

from base.api import (
    NamedPageOut,
    PageOut,
    add_detail,
    add_filtered_list,
    credit_out,
    page_link,
    titled_page,
)
from outputs.filters import OutputFilter
from outputs.models import Output

router = Router(tags=["outputs"])

PER_PAGE = 25


class CreatorOut(Schema):
    name: str
    orcid: str = Field(description='The ORCID iD, "" when not known.')
    profile: str | None = Field(description="Their profile's address, when a member with one.")


class OutputSummaryOut(Schema):
    slug: str
    kind: str = Field(description='"dataset" or "software".')
    title: str
    url: str = Field(description="The output's page on this site.")
    version: str
    licence: str = Field(description='Its SPDX licence identifier, "" when not given.')
    doi: str
    repository: str = Field(description="The code repository or the dataset's landing page.")
    released: str | None = Field(description='ISO 8601 at its precision: "2026", "2026-07".')
    creators: list[CreatorOut]


class OutputOut(OutputSummaryOut):
    description: str = Field(description="Markdown.")
    publications: list[NamedPageOut] = Field(description="The papers it belongs to.")


class OutputPage(PageOut[OutputSummaryOut]):
    pass


def output_summary(output: Output, request: HttpRequest) -> dict:
    """Reads the creators Output.objects.for_listing() prefetched."""
    return {
        "kind": output.kind,
        **titled_page(output, request),
        "version": output.version,
        "licence": output.licence,
        "doi": output.doi,
        "repository": output.url,
        "released": output.released.isoformat() if output.released else None,
        "creators": [credit_out(creator, request) for creator in output.creators.all()],
    }


add_filtered_list(
    router,
    "/outputs/",
    operation_id="list_outputs",
    summary="Datasets and software, filtered as on /outputs/",
    description="In the list page's order (newest release first), so page N is the page's page N.",
    filterset_class=OutputFilter,
    rows=lambda: Output.objects.published().for_listing(),
    row=output_summary,
    page=OutputPage,
    per_page=PER_PAGE,
)


@add_detail(router, "/outputs/{slug}/", OutputOut, lambda: Output.objects.published().for_page())
def get_output(output: Output, request: HttpRequest) -> dict:
    """One dataset or piece of software"""
    papers = output.listed_publications  # type: ignore[attr-defined]  # for_page's prefetch
    return {
        **output_summary(output, request),
        "description": output.description,
        "publications": [page_link(paper, paper.title, request) for paper in papers],
    }
