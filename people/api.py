"""/api/people/, /api/groups/ and /api/areas/: the directory as data, each profile with its CV
sections and its place in the department, and the department's research groups and areas.

Email addresses stay out, as they stay out of the pages' markup and JSON-LD: the API is open to
every site and every harvester.
"""

from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.http import urlencode
from ninja import Field, Router, Schema

from base.api import (
    NamedPageOut,
    PageOut,
    WebLinkOut,
    add_detail,
    add_filtered_list,
    add_paged_list,
    api_list,
    links_data,
    page_link,
)
from people.filters import PersonFilter
from people.models import ExternalPerson, Person, ResearchArea, ResearchGroup

router = Router(tags=["people"])
department_router = Router(tags=["department"])

PER_PAGE = 100
GROUPS_PER_PAGE = 100
AREAS_PER_PAGE = 100


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


class SomeoneOut(Schema):
    """A member or someone outside the lab, as a profile names them."""

    name: str
    person: str | None = Field(description="The lab member's slug, when they are one.")
    url: str | None = Field(
        description="The member's profile; for someone outside the lab, the homepage, ORCID "
        "or dblp page their record names, if any."
    )
    orcid: str | None = Field(description='Their ORCID iD, e.g. "0000-0002-1825-0097".')
    affiliation: str | None = Field(description="Where someone outside the lab works.")


class AdvisingOut(Schema):
    kind: str
    kind_label: str = Field(description='e.g. "Co-advisor".')
    period: str = Field(description='As the profile prints it: "2017 – 2022", or "".')
    current: bool
    degree: str | None = Field(description="The advisee's degree it was part of.")


class AdvisorOut(AdvisingOut):
    advisor: SomeoneOut


class StudentOut(AdvisingOut):
    student: SomeoneOut


class GroupRoleOut(Schema):
    group: NamedPageOut
    role: str
    role_label: str = Field(description='As the group\'s page names it: "PhD student".')
    period: str = Field(description='As the profile prints it: "Sep 2023 – Present".')
    start: str | None = Field(description='ISO 8601 at its precision: "2023-09".')
    end: str | None
    current: bool


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
    groups: list[GroupRoleOut] = Field(description="Their research groups, current first.")
    research_areas: list[NamedPageOut]
    advisors: list[AdvisorOut]
    students: list[StudentOut] = Field(description="Published members they advise or advised.")
    collaborators: list[SomeoneOut] = Field(
        description="Whom their profile names as close collaborators."
    )
    publications: str = Field(description="Their publications in this API.")
    cv_pdf: str = Field(description="Their CV as a PDF.")


class PeoplePage(PageOut[PersonSummaryOut]):
    pass


def person_summary(person: Person, request: HttpRequest) -> dict:
    """Reads the role group: select it with the person."""
    group = person.role_group
    return {
        **page_link(person, person.name, request),
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


def someone_data(record: Person | ExternalPerson, request: HttpRequest) -> dict:
    """A member by their profile; a draft profile is only a name, as on the pages."""
    if isinstance(record, ExternalPerson):
        return {
            "name": record.name,
            "person": None,
            "url": record.url or None,
            "orcid": record.orcid or None,
            "affiliation": record.affiliation or None,
        }
    shown = record.is_published
    return {
        "name": record.name,
        "person": record.slug if shown else None,
        "url": request.build_absolute_uri(record.get_absolute_url()) if shown else None,
        "orcid": (record.orcid or None) if shown else None,
        "affiliation": None,
    }


def advising_data(advising) -> dict:
    """Reads the degree: select it with the advising (Person.objects.for_profile does)."""
    return {
        "kind": advising.kind,
        "kind_label": advising.get_kind_display(),
        "period": advising.period,
        "current": advising.is_current,
        "degree": advising.degree.headline if advising.degree else None,
    }


def group_role(membership, request: HttpRequest) -> dict:
    group = membership.group
    return {
        "group": page_link(group, group.name, request),
        "role": membership.role,
        "role_label": membership.get_role_display(),
        "period": membership.period,
        "start": membership.start.isoformat() if membership.start else None,
        "end": membership.end.isoformat() if membership.end else None,
        "current": membership.end is None,
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


def directory_order() -> QuerySet[Person]:
    """The directory's order, then the slug: a page must end on something unique."""
    people = Person.objects.published().for_directory()
    return people.order_by(*people.query.order_by, "slug")


add_filtered_list(
    router,
    "/people/",
    operation_id="list_people",
    summary="People, filtered as on /people/",
    description="In the directory's order (by group, the alumni last, then by name), then by "
    "slug, so namesakes keep their pages.",
    filterset_class=PersonFilter,
    rows=directory_order,
    row=person_summary,
    page=PeoplePage,
    per_page=PER_PAGE,
)


@add_detail(router, "/people/{slug}/", PersonOut, lambda: Person.objects.published().for_profile())
def get_person(person: Person, request: HttpRequest) -> dict:
    """One person, with their CV"""
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
        # The profile's own prefetches (for_profile): drafts are left out there already.
        "groups": [group_role(membership, request) for membership in person.memberships.all()],
        "research_areas": [
            page_link(area, area.name, request) for area in person.research_areas.all()
        ],
        "advisors": [
            {**advising_data(advising), "advisor": someone_data(advising.advisor_record, request)}
            for advising in person.advisors.all()
        ],
        "students": [
            {**advising_data(advising), "student": someone_data(advising.advisee, request)}
            for advising in person.students.all()
        ],
        "collaborators": [
            someone_data(collaboration.collaborator_record, request)
            for collaboration in person.collaborations.all()
        ],
        "publications": api_list("api:list_publications", request, author=person.slug),
        "cv_pdf": request.build_absolute_uri(reverse("people:cv-pdf", args=[person.slug])),
    }


# The department: research groups and research areas.


class GroupMemberOut(NamedPageOut):
    role: str
    role_label: str = Field(description='As the group\'s page heads it: "PhD student".')
    start: str | None = Field(description="When they joined, ISO 8601 at its precision.")


class GroupSummaryOut(Schema):
    slug: str
    name: str
    url: str = Field(description="The group's page.")
    short_description: str
    areas: list[NamedPageOut] = Field(description="The research areas it works in.")
    leaders: list[NamedPageOut] = Field(description="Its current group leaders, by name.")
    member_count: int = Field(description="Its current members, each counted once.")


class GroupOut(GroupSummaryOut):
    description: str = Field(description="Markdown.")
    members: list[GroupMemberOut] = Field(
        description="Its current members as its page lists them: by role, leaders first, "
        "then by name."
    )
    alumni: list[NamedPageOut] = Field(description="Former members, by name.")
    publications: str = Field(description="Its publications in this API.")
    news: str = Field(description="Its news in this API.")
    news_feed: str = Field(description="An Atom feed of its news.")


class GroupPage(PageOut[GroupSummaryOut]):
    pass


class AreaSummaryOut(Schema):
    slug: str
    name: str
    url: str = Field(description="The area's page.")
    description: str = Field(description="Markdown.")


class AreaOut(AreaSummaryOut):
    groups: list[NamedPageOut] = Field(description="The research groups working in it.")
    people: list[NamedPageOut] = Field(description="Its people, in the directory's order.")
    publications: str = Field(description="Its publications in this API.")


class AreaPage(PageOut[AreaSummaryOut]):
    pass


def group_summary(group: ResearchGroup, request: HttpRequest) -> dict:
    """Reads what ResearchGroup.objects.for_index() adds: the count, leaders and areas."""
    # Set on each row by for_index() (a prefetch to_attr and an annotation), not fields.
    areas, leaders = group.published_areas, group.current_leaders  # type: ignore[attr-defined]
    return {
        **page_link(group, group.name, request),
        "short_description": group.short_description,
        "areas": [page_link(area, area.name, request) for area in areas],
        "leaders": [
            page_link(membership.person, membership.person.name, request) for membership in leaders
        ],
        "member_count": group.member_count,  # type: ignore[attr-defined]
    }


@add_paged_list(
    department_router,
    "/groups/",
    GroupPage,
    summary="Research groups, as on /groups/",
    row=group_summary,
    per_page=GROUPS_PER_PAGE,
)
def list_groups():
    """In the order staff gave them, then by name (unique)."""
    return ResearchGroup.objects.published().for_index().order_by("position", "name")


@add_detail(
    department_router,
    "/groups/{slug}/",
    GroupOut,
    lambda: ResearchGroup.objects.published().for_index(),
)
def get_group(group: ResearchGroup, request: HttpRequest) -> dict:
    """One research group, with its members"""
    members = group.memberships.listed().select_related("person")
    alumni = Person.objects.published().former_members_of(group).order_by("name", "slug")
    return {
        **group_summary(group, request),
        "description": group.description,
        "members": [
            {
                **page_link(membership.person, membership.person.name, request),
                "role": membership.role,
                "role_label": membership.get_role_display(),
                "start": membership.start.isoformat() if membership.start else None,
            }
            for membership in members
        ],
        "alumni": [page_link(person, person.name, request) for person in alumni],
        "publications": api_list("api:list_publications", request, group=group.slug),
        "news": api_list("api:list_news", request, group=group.slug),
        "news_feed": request.build_absolute_uri(
            reverse("news:feed") + "?" + urlencode({"group": group.slug})
        ),
    }


def area_summary(area: ResearchArea, request: HttpRequest) -> dict:
    return {
        **page_link(area, area.name, request),
        "description": area.description,
    }


@add_paged_list(
    department_router,
    "/areas/",
    AreaPage,
    summary="Research areas, as on /areas/",
    row=area_summary,
    per_page=AREAS_PER_PAGE,
)
def list_areas():
    """By name (unique)."""
    return ResearchArea.objects.published().order_by("name")


@add_detail(department_router, "/areas/{slug}/", AreaOut, lambda: ResearchArea.objects.published())
def get_area(area: ResearchArea, request: HttpRequest) -> dict:
    """One research area, with its groups and people"""
    groups = ResearchGroup.objects.published().filter(areas=area)
    # The directory's order, without the links its cards show.
    people = Person.objects.published().in_areas(area).for_directory().prefetch_related(None)
    return {
        **area_summary(area, request),
        "groups": [page_link(group, group.name, request) for group in groups],
        "people": [page_link(person, person.name, request) for person in people],
        "publications": api_list("api:list_publications", request, area=area.slug),
    }
