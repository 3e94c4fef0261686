"""A group's papers are its members' papers while they were members; its news is about it or
about them then; its list entry counts current members and names its leaders."""

import pytest

from news.models import NewsItem
from people.models import Membership, ResearchGroup
from publications.models import Publication
from tests.department import make_membership, make_research_group
from tests.factories import make_news, make_person, make_publication

pytestmark = pytest.mark.django_db


def titles(queryset) -> set[str]:
    return set(queryset.values_list("title", flat=True))


def test_a_groups_papers_are_those_its_members_wrote_while_members():
    group, other_group = make_research_group(), make_research_group()
    ada = make_person(name="Ada")
    make_membership(ada, group, start="2019-09", end="2022")
    for year in [2018, 2019, 2022, 2023]:
        make_publication(title=f"Ada {year}", year=year, authors=[ada])
    make_publication(title="Ada undated", year=None, authors=[ada])
    make_publication(title="Outsiders 2020", year=2020, authors=["Someone"])
    make_membership(make_person(), other_group)

    assert titles(Publication.objects.of_groups(group)) == {"Ada 2019", "Ada 2022"}
    assert titles(Publication.objects.of_groups(other_group)) == set()


def test_open_ended_memberships_cover_every_year_on_their_open_side_and_undated_papers():
    group = make_research_group()
    grace = make_person(name="Grace")
    make_membership(grace, group, start="2024")  # current
    make_membership(make_person(name="Alan"), group, end="2015")  # joined at an unknown time
    for year in [2010, 2015, 2016, 2023, 2024, 2026]:
        make_publication(title=f"Grace {year}", year=year, authors=[grace])
    make_publication(title="Grace undated", year=None, authors=[grace])
    make_publication(title="Alan 1999", year=1999, authors=["Alan"])  # a printed name only
    assert titles(Publication.objects.of_groups(group)) == {
        "Grace 2024",
        "Grace 2026",
        "Grace undated",
    }


def test_a_paper_of_two_members_is_listed_once_and_groups_filter_together():
    first, second = make_research_group(), make_research_group()
    ada, grace = make_person(), make_person()
    make_membership(ada, first)
    make_membership(grace, first)
    make_membership(grace, second)
    make_publication(title="Together", authors=[ada, grace])
    assert list(Publication.objects.of_groups(first).values_list("title", flat=True)) == [
        "Together"
    ]
    assert Publication.objects.of_groups([first, second]).count() == 1


def test_a_groups_news_is_about_it_or_about_a_member_while_a_member():
    group = make_research_group()
    ada = make_person()
    make_membership(ada, group, start="2020", end="2021")
    make_news(title="Group news", date="2019").groups.add(group)
    make_news(title="Ada 2021", date="2021-06").people.add(ada)
    make_news(title="Ada 2025", date="2025").people.add(ada)
    make_news(title="Unrelated", date="2021")
    assert titles(NewsItem.objects.of_group(group)) == {"Group news", "Ada 2021"}


def test_the_list_of_groups_counts_current_published_members_once_and_names_leaders():
    group = make_research_group(name="Systems")
    leader, student, draft, former = (
        make_person(name="Lead"),
        make_person(name="Student"),
        make_person(name="Draft", is_published=False),
        make_person(name="Former"),
    )
    make_membership(leader, group, role=Membership.Role.LEADER)
    make_membership(student, group, start="2019", end="2020")
    make_membership(student, group, start="2021")  # rejoined: counted once
    make_membership(draft, group, role=Membership.Role.LEADER)
    make_membership(former, group, role=Membership.Role.LEADER, end="2018")
    (listed,) = ResearchGroup.objects.for_index()
    assert listed.member_count == 2
    assert [membership.person.name for membership in listed.current_leaders] == ["Lead"]
