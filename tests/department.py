"""Builders for the department's rows (groups, memberships, areas, external people), in the
manner of tests/factories.py: keyword arguments override the defaults."""

from news.models import NewsItem
from people.models import (
    Advising,
    Departure,
    ExternalPerson,
    Membership,
    Person,
    ResearchArea,
    ResearchGroup,
    RoleGroup,
)
from publications.models import Authorship, Publication, Venue
from publications.search import search_text_of
from tests.factories import make_named


def make_research_group(**fields) -> ResearchGroup:
    return make_named(ResearchGroup, "Research Group", "research-group", fields)


def make_membership(person, group, **fields) -> Membership:
    return Membership.objects.create(person=person, group=group, **fields)


def make_area(**fields) -> ResearchArea:
    return make_named(ResearchArea, "Area", "area", fields)


def make_external(**fields) -> ExternalPerson:
    return make_named(ExternalPerson, "Outside Person", "outside", fields)


def build_department(*, groups: int, people: int, papers: int) -> dict:
    """A department made with bulk_create, fast at any size: `groups` research groups, each led
    by its first member; `people` members spread over the groups (every fourth one left their
    group in 2019, with an alumni record; every seventh is also in a second group); `papers`
    publications of two members and an outside author each, every third of them a record of
    its own; three research areas on people, groups and papers; news about members and groups.
    """
    group_rows = ResearchGroup.objects.bulk_create(
        ResearchGroup(name=f"Group {n}", slug=f"group-{n}", position=n) for n in range(groups)
    )
    area_rows = ResearchArea.objects.bulk_create(
        ResearchArea(name=f"Area {n}", slug=f"area-{n}") for n in range(3)
    )
    alumni = RoleGroup.objects.create(name="Alumni", slug="alumni", is_alumni=True)
    students = RoleGroup.objects.create(name="PhD Students", slug="phd-students")
    person_rows = Person.objects.bulk_create(
        Person(
            name=f"Member {n:03d}",
            slug=f"member-{n:03d}",
            role_group=alumni if n % 4 == 3 else students,
        )
        for n in range(people)
    )
    memberships = []
    for n, person in enumerate(person_rows):
        group = group_rows[n % groups]
        if n < groups:
            role, start, end = Membership.Role.LEADER, "2010", None
        elif n % 4 == 3:
            role, start, end = Membership.Role.PHD_STUDENT, "2014-09", "2019"
        else:
            role, start, end = Membership.Role.PHD_STUDENT, "2016", None
        memberships.append(Membership(group=group, person=person, role=role, start=start, end=end))
        if n % 7 == 6:
            second = group_rows[(n + 1) % groups]
            memberships.append(
                Membership(group=second, person=person, role=Membership.Role.VISITOR)
            )
    Membership.objects.bulk_create(memberships)
    Departure.objects.bulk_create(
        Departure(person=person, last_role="PhD student", left="2019", next_position="Industry")
        for n, person in enumerate(person_rows)
        if n % 4 == 3
    )
    Person.research_areas.through.objects.bulk_create(
        Person.research_areas.through(person=person, researcharea=area_rows[n % 3])
        for n, person in enumerate(person_rows)
    )
    ResearchGroup.areas.through.objects.bulk_create(
        ResearchGroup.areas.through(researchgroup=group, researcharea=area_rows[n % 3])
        for n, group in enumerate(group_rows)
    )
    externals = ExternalPerson.objects.bulk_create(
        ExternalPerson(name=f"Outside {n}", slug=f"outside-{n}") for n in range(10)
    )
    venues = Venue.objects.bulk_create(Venue(short_name=f"V{n}") for n in range(4))
    paper_rows = Publication.objects.bulk_create(
        Publication(
            title=f"Paper {n:04d}",
            # bulk_create skips the receiver that stores it; the search reads only the title here.
            search_text=search_text_of(title=f"Paper {n:04d}", authors=[]),
            slug=f"paper-{n:04d}",
            year=2012 + n % 14,
            venue=venues[n % 4],
        )
        for n in range(papers)
    )
    authorships = []
    for n, paper in enumerate(paper_rows):
        first, second = person_rows[n % people], person_rows[(n * 7 + 1) % people]
        outside = externals[n % 10] if n % 3 == 0 else None
        authorships += [
            Authorship(publication=paper, position=1, name=first.name, person=first),
            Authorship(publication=paper, position=2, name=f"Outside {n % 10}", researcher=outside),
            Authorship(publication=paper, position=3, name=second.name, person=second),
        ]
    Authorship.objects.bulk_create(authorships)
    Publication.areas.through.objects.bulk_create(
        Publication.areas.through(publication=paper, researcharea=area_rows[n % 3])
        for n, paper in enumerate(paper_rows)
    )
    news = NewsItem.objects.bulk_create(
        NewsItem(title=f"News {n}", slug=f"news-{n}", date=f"{2012 + n % 14}")
        for n in range(max(papers // 20, 2))
    )
    NewsItem.people.through.objects.bulk_create(
        NewsItem.people.through(newsitem=item, person=person_rows[n % people])
        for n, item in enumerate(news)
    )
    NewsItem.groups.through.objects.bulk_create(
        NewsItem.groups.through(newsitem=item, researchgroup=group_rows[n % groups])
        for n, item in enumerate(news)
        if n % 4 == 0
    )
    Advising.objects.bulk_create(
        Advising(advisee=person, position=1, advisor=person_rows[n % groups])
        for n, person in enumerate(person_rows)
        if n >= groups
    )
    return {"groups": group_rows, "people": person_rows, "papers": paper_rows, "areas": area_rows}


def add_groups_to_seed() -> None:
    """Research groups and areas over the four seeded profiles (which have none), with drafts
    beside them, and ORCID iDs on a member and on an external advisor who is also a co-author:

    - Machine Learning Systems: Hao Zhang leads it, Zerui Wang is a PhD student since Sep
      2023, Haoran Zhang was one from 2019 to 2024 (an alumnus of it), and a draft profile is
      a member; it works in "Machine learning systems" and in a draft area.
    - Networked Systems: Hang Zhu leads it, Haoran Zhang is a researcher in it since 2025.
    - Hidden Group, a draft, with Zerui Wang as a visitor.
    """
    people = {person.slug: person for person in Person.objects.all()}
    people["hidden-member"] = Person.objects.create(
        name="Hidden Member", slug="hidden-member", is_published=False
    )
    ml_area = make_area(name="Machine learning systems", slug="ml-systems-area")
    networks = make_area(name="Networks", slug="networks")
    hidden_area = make_area(name="Hidden Area", slug="hidden-area", is_published=False)
    ml_systems = make_research_group(
        name="Machine Learning Systems",
        slug="ml-systems",
        short_description="Systems for training and serving large models.",
        description="We build *systems* for machine learning.",
        position=1,
    )
    networked = make_research_group(name="Networked Systems", slug="networked-systems", position=2)
    hidden = make_research_group(name="Hidden Group", slug="hidden-group", is_published=False)
    ml_systems.areas.add(ml_area, hidden_area)
    networked.areas.add(networks)
    hidden.areas.add(ml_area)
    for group, slug, role, start, end in [
        (ml_systems, "hao-zhang", Membership.Role.LEADER, "2015", None),
        (ml_systems, "zerui-wang", Membership.Role.PHD_STUDENT, "2023-09", None),
        (ml_systems, "haoran-zhang", Membership.Role.PHD_STUDENT, "2019", "2024"),
        (ml_systems, "hidden-member", Membership.Role.POSTDOC, "2024", None),
        (networked, "hang-zhu", Membership.Role.LEADER, "2020", None),
        (networked, "haoran-zhang", Membership.Role.RESEARCHER, "2025", None),
        (hidden, "zerui-wang", Membership.Role.VISITOR, None, None),
    ]:
        make_membership(people[slug], group, role=role, start=start, end=end)
    people["zerui-wang"].research_areas.add(ml_area, hidden_area)
    people["hao-zhang"].research_areas.add(ml_area)
    people["hidden-member"].research_areas.add(ml_area)
    people["hang-zhu"].research_areas.add(networks)
    Person.objects.filter(slug="hang-zhu").update(orcid="0000-0002-1825-0097")
    ExternalPerson.objects.filter(slug="xin-jin").update(orcid="0000-0001-5109-3700")
