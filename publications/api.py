"""/api/publications/ and /api/venues/: the publication list as data, with the HTML list's
filters and facet counts (publications/filters.py), and each paper and venue by itself."""

from collections.abc import Callable
from typing import Any

from django.db.models import Count, Q
from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from ninja import Field, Query, Router, Schema

from base.api import (
    ERRORS,
    PageOut,
    WebLinkOut,
    add_detail,
    add_paged_list,
    api_list,
    filter_parameters,
    filtered_page,
    links_data,
    titled_page,
)
from publications import exports
from publications.filters import (
    Facet,
    PublicationFilter,
    award_count,
    facets,
    in_chosen_years,
    year_counts,
    year_options,
)
from publications.models import Publication, Venue

router = Router(tags=["publications"])

# The HTML list's page size, so page N of the API holds the papers of page N of the list.
PER_PAGE = 50
VENUES_PER_PAGE = 100


class AuthorOut(Schema):
    name: str = Field(description="The name as printed in the paper.")
    person: str | None = Field(description="The lab member's slug, when the author is one.")
    url: str | None = Field(description="The member's profile.")
    orcid: str | None = Field(
        description="The ORCID iD of the member, or of the person outside the lab the author row "
        'is linked to, e.g. "0000-0002-1825-0097".'
    )
    equal_contribution: bool


class PublicationSummaryOut(Schema):
    slug: str
    title: str
    url: str = Field(description="The publication's page.")
    year: int | None
    venue: str | None = Field(description="The venue's short name, as the venue filter takes it.")
    venue_name: str | None = Field(description='e.g. "USENIX Symposium on ... (NSDI)".')
    type: str
    type_label: str
    status: str
    doi: str | None
    authors: list[AuthorOut]
    awards: list[str]
    links: list[WebLinkOut]


class PublicationOut(PublicationSummaryOut):
    abstract: str = Field(description="Markdown.")
    bibtex: str


class FacetOptionOut(Schema):
    value: str
    label: str
    count: int = Field(description="Publications with this value, under the other filters.")
    selected: bool


class PublicationPage(PageOut[PublicationSummaryOut]):
    facets: dict[str, list[FacetOptionOut]] = Field(
        description="The HTML list's facets (venue, type, author, funder, year), most papers "
        "first (years newest first): each option counted with every other filter applied."
    )
    award_count: int = Field(description="Papers with an award, under the other filters.")


class VenueOut(Schema):
    short_name: str
    full_name: str
    name: str = Field(description="How the site names it.")
    kind: str
    publication_count: int
    publications: str = Field(description="Its publications in this API.")


class VenuePage(PageOut[VenueOut]):
    pass


def publication_summary(publication: Publication, request: HttpRequest) -> dict:
    """Reads only what Publication.objects.for_listing() loads."""
    venue = publication.venue
    return {
        **titled_page(publication, request),
        "year": publication.year,
        "venue": venue.short_name if venue else None,
        "venue_name": venue.display_name if venue else None,
        "type": publication.type,
        "type_label": publication.get_type_display(),
        "status": publication.status,
        "doi": publication.doi or None,
        "authors": [
            author_data(authorship, request) for authorship in publication.authorships.all()
        ],
        "awards": [award.name for award in publication.awards.all()],
        "links": links_data(publication.links.all()),
    }


def author_data(authorship, request: HttpRequest) -> dict:
    """A draft profile is not linked: its author is a name like any other. Reads only what
    Publication.objects.for_listing() selects with each author row."""
    person = authorship.person
    member = person if person is not None and person.is_published else None
    identified = member or authorship.external
    return {
        "name": authorship.name,
        "person": member.slug if member else None,
        "url": request.build_absolute_uri(member.get_absolute_url()) if member else None,
        "orcid": (identified.orcid or None) if identified else None,
        "equal_contribution": authorship.equal_contribution,
    }


def no_more_facets(filterset: PublicationFilter) -> dict[str, Facet]:
    return {}


def add_publication_list(
    router: Router,
    *,
    filterset_class: type[PublicationFilter] = PublicationFilter,
    more_facets: Callable[[Any], dict[str, Facet]] = no_more_facets,
) -> None:
    """Add /publications/ to `router` with `filterset_class`'s filters and `more_facets`'s
    counts beside the list's own. config/api.py adds it with the funder filter and its facet
    (projects/filters.py), as the HTML list has them: publications may not import projects."""
    parameters = filter_parameters(filterset_class, operation_id="list_publications")

    @router.get(
        "/publications/",
        response={200: PublicationPage, **ERRORS},
        operation_id="list_publications",
        summary="Publications, filtered as on /publications/",
    )
    def list_publications(request, filters: Query[parameters]):  # type: ignore[valid-type]
        """The same filters as the HTML list, by the same FilterSet; a value the list would
        ignore is refused with a 400. Newest first, 50 a page; facet counts as the list shows
        them."""
        filterset = filterset_class(
            request.GET, queryset=Publication.objects.published().for_listing()
        )
        page = filtered_page(request, filterset, per_page=PER_PAGE, row=publication_summary)
        years = year_counts(filterset)
        return {
            **page,
            "facets": {
                **{
                    # A type's label is lazy (said in the page's language): the API's is English.
                    name: [
                        {**option.__dict__, "label": str(option.label)} for option in facet.options
                    ]
                    for name, facet in {**facets(filterset), **more_facets(filterset)}.items()
                },
                "year": [
                    {
                        "value": str(option.year),
                        "label": str(option.year),
                        "count": option.count,
                        "selected": in_chosen_years(filterset, option.year),
                    }
                    for option in year_options(filterset, years)
                ],
            },
            "award_count": award_count(filterset),
        }


@add_detail(
    router,
    "/publications/{slug}/",
    PublicationOut,
    lambda: Publication.objects.published().for_listing(),
)
def get_publication(publication: Publication, request: HttpRequest) -> dict:
    """One publication"""
    return {
        **publication_summary(publication, request),
        "abstract": publication.abstract,
        "bibtex": exports.bibtex([publication]),
    }


def venues_with_counts():
    published = Q(publications__is_published=True)
    return Venue.objects.annotate(publication_count=Count("publications", filter=published))


def venue_data(venue: Venue, request: HttpRequest) -> dict:
    return {
        "short_name": venue.short_name,
        "full_name": venue.full_name,
        "name": venue.display_name,
        "kind": venue.kind,
        "publication_count": venue.publication_count,  # type: ignore[attr-defined]  # annotated
        "publications": api_list("api:list_publications", request, venue=venue.short_name),
    }


@add_paged_list(
    router,
    "/venues/",
    VenuePage,
    summary="Venues, with how many publications each has",
    row=venue_data,
    per_page=VENUES_PER_PAGE,
)
def list_venues():
    return venues_with_counts().order_by("short_name")


@router.get(
    "/venues/{short_name}/",
    response={200: VenueOut, **ERRORS},
    operation_id="get_venue",
    summary="One venue, by its short name (any case)",
)
def get_venue(request, short_name: str):
    venue = get_object_or_404(venues_with_counts(), short_name__iexact=short_name)
    return venue_data(venue, request)
