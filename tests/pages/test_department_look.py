"""The department's pages in the public pages' look: a group card names its areas, an area's
page charts its papers by year and leads to the publication list filtered by it, and a card
says where someone who left went, whatever their role group."""

import pytest

from people.models import Departure
from tests.department import make_area, make_membership, make_research_group
from tests.factories import count_queries, make_person, make_publication

pytestmark = pytest.mark.django_db


def test_a_group_card_lists_its_published_areas_as_links(client):
    group = make_research_group(name="Systems")
    shown, draft = make_area(name="Networking"), make_area(name="Hidden", is_published=False)
    group.areas.add(shown, draft)
    html = client.get("/groups/").content.decode()
    assert f'<a href="{shown.get_absolute_url()}">Networking</a>' in html
    assert "Hidden" not in html


@pytest.mark.parametrize("groups", [1, 30])
def test_the_list_of_groups_runs_a_fixed_number_of_queries(client, groups):
    """lab (with whether groups exist), groups with member counts, their leaders, their areas."""
    for _ in range(groups):
        group = make_research_group()
        group.areas.add(make_area())
        make_membership(make_person(), group, role="leader")
    assert count_queries(client, "/groups/") == 4


def test_an_area_page_charts_its_papers_by_year_and_links_to_all_of_them(client):
    area = make_area(slug="networking")
    for year in (2021, 2021, 2023):
        make_publication(year=year).areas.add(area)
    make_publication(year=2022)  # not filed under the area
    response = client.get("/areas/networking/")
    assert response.context["publication_count"] == 3
    bars = {bar.year: bar.count for bar in response.context["chart"].bars if bar.count}
    assert bars == {2021: 2, 2023: 1}
    html = response.content.decode()
    assert 'href="/publications/?area=networking&amp;year_min=2021&amp;year_max=2021"' in html
    assert 'href="/publications/?area=networking"' in html


def test_a_card_says_where_someone_went_even_outside_the_alumni_group(client):
    group = make_research_group(slug="systems")
    visitor = make_person(name="Visitor", position_title="Professor")
    make_membership(visitor, group, end="2020")
    Departure.objects.create(person=visitor, last_role="Visitor", next_position="ETH Zürich")
    html = client.get("/groups/systems/").content.decode()
    assert "Now at ETH Zürich" in html
    assert "Professor" not in html  # the card says what they do now, not their old title


def test_the_site_search_finds_groups_by_word_start_only_where_there_are_groups(client):
    make_person(name="Ada Widget")
    assert "Research groups" not in client.get("/search/?q=widget").content.decode()
    # As before: none for groups. (One reads the people's texts to fold them; news, with no
    # match, needs no count.)
    assert count_queries(client, "/search/?q=widget") == 7
    make_research_group(name="Widget Systems", short_description="We build widgets.")
    make_research_group(name="Networks", short_description="Not about midgets.")
    make_research_group(name="Hidden Widgets", is_published=False)
    response = client.get("/search/?q=widget")
    found = {group.kind: group for group in response.context["groups"]}["groups"]
    assert [group.name for group in found.first] == ["Widget Systems"]
    html = response.content.decode()
    assert '<a href="/groups/research-group' in html and "<mark>Widget</mark> Systems" in html


@pytest.mark.parametrize("groups", [1, 30])
def test_the_site_search_with_groups_runs_a_fixed_number_of_queries(client, groups):
    """lab; people: their texts folded, count; groups: their texts folded, count, rows,
    leaders, areas; publications: count, rows and their three prefetches; news: their texts
    folded (none match, so no count)."""
    for number in range(groups):
        group = make_research_group(name=f"Widget Group {number}")
        group.areas.add(make_area())
        make_membership(make_person(), group, role="leader")
    make_publication(title="Widget paper")
    assert count_queries(client, "/search/?q=widget") == 13
