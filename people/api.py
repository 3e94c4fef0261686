"""/api/people/: the directory as data, and each profile with its CV sections.

Email addresses stay out, as they stay out of the pages' markup and JSON-LD: the API is open to
every site and every harvester.
"""

from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.http import urlencode
from ninja import Field, Query, Router, Schema

from directory.api import (
    ERRORS,
    PageOut,
    WebLinkOut,
    filter_parameters,
    filtered_page,
    links_data,
)
from people.filters import PersonFilter
from people.models import Person

router = Router(tags=["people"])

PER_PAGE = 100


class RoleGroupOut(Schema):
    slug: str
    name: str
    is_alumni: bool


class PersonSummaryOut(Schema):
    slug: str
    name: str
    url: str = Field(description="The profile page.")
    position_title: str
    role_group: RoleGroupOut | None
    orcid: str | None = Field(description='The ORCID iD, e.g. "0000-0002-1825-0097".')
    orcid_url: str | None
    photo: str | None = Field(description="The portrait as the profile shows it.")


class CvEntryOut(Schema):
    headline: str = Field(description='What it is, e.g. "Ph.D. in Computer Science, Penn".')
    when: str = Field(description='As the profile prints it, at its precision: "2017 – 2022".')
    start: str | None = Field(description='ISO 8601 at its precision: "2017", "2017-09".')
    end: str | None
    date: str | None
    current: bool
    notes: list[str]


class PersonOut(PersonSummaryOut):
    affiliations: list[str]
    research_interests: list[str]
    short_bio: str = Field(description="Markdown.")
    bio: str = Field(description="Markdown.")
    links: list[WebLinkOut]
    education: list[CvEntryOut]
    experience: list[CvEntryOut]
    teaching: list[CvEntryOut]
    service: list[CvEntryOut]
    awards: list[CvEntryOut]
    publications: str = Field(description="Their publications in this API.")
    cv_pdf: str = Field(description="Their CV as a PDF.")


class PeoplePage(PageOut[PersonSummaryOut]):
    pass


def person_summary(person: Person, request: HttpRequest) -> dict:
    """Reads the role group: select it with the person."""
    group = person.role_group
    return {
        "slug": person.slug,
        "name": person.name,
        "url": request.build_absolute_uri(person.get_absolute_url()),
        "position_title": person.position_title,
        "role_group": (
            {"slug": group.slug, "name": group.name, "is_alumni": group.is_alumni}
            if group
            else None
        ),
        "orcid": person.orcid or None,
        "orcid_url": person.orcid_url or None,
        "photo": request.build_absolute_uri(person.large_thumbnail_url) if person.photo else None,
    }


def cv_entry(entry) -> dict:
    """Any CV entry: a period (education, experience), a date (service, awards) or a term."""

    def iso(name: str) -> str | None:
        value = getattr(entry, name, None)
        return value.isoformat() if value else None

    return {
        "headline": entry.headline,
        "when": entry.when,
        "start": iso("start"),
        "end": iso("end"),
        "date": iso("date"),
        "current": getattr(entry, "is_current", False),
        "notes": entry.notes,
    }


PersonQuery = filter_parameters(PersonFilter, operation_id="list_people")


@router.get(
    "/people/",
    response={200: PeoplePage, **ERRORS},
    operation_id="list_people",
    summary="People, filtered as on /people/",
)
def list_people(request, filters: Query[PersonQuery]):  # type: ignore[valid-type]
    """In the directory's order (by group, the alumni last, then by name), then by slug, so
    namesakes keep their pages."""
    people = Person.objects.published().for_directory()
    people = people.order_by(*people.query.order_by, "slug")
    filterset = PersonFilter(request.GET, queryset=people)
    return filtered_page(request, filterset, per_page=PER_PAGE, row=person_summary)


@router.get(
    "/people/{slug}/",
    response={200: PersonOut, **ERRORS},
    operation_id="get_person",
    summary="One person, with their CV",
)
def get_person(request, slug: str):
    person = get_object_or_404(Person.objects.published().for_profile(), slug=slug)
    return {
        **person_summary(person, request),
        "affiliations": person.affiliation_list,
        "research_interests": person.interest_list,
        "short_bio": person.short_bio,
        "bio": person.bio,
        "links": links_data(person.links.all()),
        **{
            section: [cv_entry(entry) for entry in getattr(person, section).all()]
            for section in ["education", "experience", "teaching", "service", "awards"]
        },
        "publications": request.build_absolute_uri(
            reverse("api:list_publications") + "?" + urlencode({"author": person.slug})
        ),
        "cv_pdf": request.build_absolute_uri(reverse("people:cv-pdf", args=[person.slug])),
    }
