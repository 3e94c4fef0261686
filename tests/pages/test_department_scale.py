"""A generated department (5 groups, 60 people, 2,000 papers, made with bulk_create) shows its
group pages, group filters and facet counts with as many queries as one of 2 groups, 6 people
and 20 papers: no query per group, member, paper or author."""

import pytest

from people.models import Person
from publications.models import Publication
from tests.department import build_department
from tests.factories import count_queries
from tests.shared_rows import shared_rows

pytestmark = pytest.mark.django_db

SIZES = {
    "few": {"groups": 2, "people": 6, "papers": 20},
    "many": {"groups": 5, "people": 60, "papers": 2000},
}


@pytest.fixture(scope="module", params=list(SIZES))
def department(request, django_db_setup, django_db_blocker):
    """Built once per size for the whole module, rolled back after its last test."""
    with shared_rows(django_db_blocker):
        yield build_department(**SIZES[request.param])


@pytest.mark.parametrize(
    ("url", "queries"),
    [
        # lab (with whether groups exist), groups with member counts, their leaders, areas.
        ("/groups/", 4),
        # lab, group with its areas (2), members by role with their links (2), alumni with
        # their links (2); the listing: choices of venue, member and area, count, the page's
        # ids, its entries' rows with authors, awards and links (citation keys are stored on
        # them), five aggregates (venue, type, member, area, the years and their chart), the
        # award count; news with their people (2); the co-author network (its members, their
        # pairs); its talks and events (upcoming, then the latest past); its datasets and
        # software; the funder facet; its projects.
        ("/groups/group-1/", 31),
        ("/groups/group-1/?venue=V1&year_min=2016&area=area-1&q=paper", 31),
        # lab, role, group and area choices, people, their links, a count per group and area.
        ("/people/", 8),
        ("/people/?group=group-1&area=area-2&role=phd-students", 8),
        # lab, venue, member, group and area choices, count, the page's ids, its entries' rows
        # with authors, awards, links, seven aggregates (venue, type, member, group, area,
        # years, funder), awards.
        ("/publications/", 19),
        ("/publications/?group=group-0&group=group-2&area=area-1&venue=V2", 19),
        # lab, area, people with their links, groups, papers' ids, their entries' rows with
        # authors, awards and links, their count per year (the chart and the total), the
        # co-author network (its members, their pairs), its datasets and software, its projects.
        ("/areas/area-0/", 15),
    ],
)
def test_department_pages_run_a_fixed_number_of_queries(client, department, url, queries):
    assert count_queries(client, url) == queries


def test_a_profile_with_advisors_students_and_groups_runs_a_fixed_number_of_queries(
    client, department
):
    """As for any profile (tests/pages/test_people_pages.py): its prefetches and lists."""
    leader = department["people"][0]
    assert count_queries(client, leader.get_absolute_url()) == 32


def test_the_group_facet_counts_each_groups_papers(client, department):
    response = client.get("/publications/")
    counts = {option.value: option.count for option in response.context["facets"]["group"].options}
    expected = {
        group.slug: Publication.objects.of_groups(group).count() for group in department["groups"]
    }
    assert counts == {slug: count for slug, count in expected.items() if count}
    assert sum(counts.values()) >= response.context["page"].paginator.count > 0


def test_a_group_page_lists_its_current_members_by_role_and_its_alumni(client, department):
    group = department["groups"][1]
    response = client.get(group.get_absolute_url())
    roles = dict(response.context["people_by_role"])
    current = set(Person.objects.in_groups(group))
    assert (
        set(roles["Group leader"]) | set(roles["PhD student"]) | set(roles.get("Visitor", []))
        == current
    )
    alumni = list(response.context["alumni"])
    assert alumni and not set(alumni) & current
    assert "Now at Industry" in response.content.decode()


def test_the_directory_counts_current_members_per_group(client, department):
    response = client.get("/people/")
    options = {option.value: option.count for option in response.context["options"]["group"]}
    for group in department["groups"]:
        assert options[group.slug] == Person.objects.in_groups(group).count()
