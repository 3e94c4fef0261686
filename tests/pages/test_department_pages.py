"""The department's pages and filters on rows each test makes: groups, areas, the directory's
and the publication list's group and area filters, advisors and students on profiles."""

import pytest
from django.test import Client

from people.models import Advising, Collaboration, Departure, Membership
from publications.models import Publication
from tests.department import (
    make_area,
    make_external,
    make_membership,
    make_research_group,
)
from tests.factories import count_queries, make_group, make_news, make_person, make_publication

pytestmark = pytest.mark.django_db


def names(people) -> list[str]:
    return [person.name for person in people]


def titles(response) -> list[str]:
    return [publication.title for publication in response.context["page"].object_list]


# Groups --------------------------------------------------------------------------------------


def test_the_header_offers_groups_only_when_a_published_group_exists(client):
    assert 'href="/groups/"' not in client.get("/").content.decode()
    assert client.get("/groups/").status_code == 404
    draft = make_research_group(is_published=False)
    assert 'href="/groups/"' not in client.get("/").content.decode()
    assert client.get(draft.get_absolute_url()).status_code == 404
    make_research_group()
    assert 'href="/groups/"' in client.get("/").content.decode()
    assert client.get("/groups/").status_code == 200


def test_a_draft_group_is_a_preview_for_editors(editor_client):
    draft = make_research_group(is_published=False)
    response = editor_client.get(draft.get_absolute_url())
    assert response.status_code == 200
    assert "Only staff see this page" in response.content.decode()


def test_the_list_of_groups_names_leaders_and_counts_members(client):
    group = make_research_group(name="Systems", short_description="We build systems.")
    lead = make_person(name="Ada Lovelace")
    make_membership(lead, group, role=Membership.Role.LEADER)
    make_membership(make_person(), group)
    make_membership(make_person(), group, end="2020")
    html = client.get("/groups/").content.decode()
    assert "We build systems." in html
    assert f'Led by <a href="{lead.get_absolute_url()}"><bdi>Ada Lovelace</bdi></a>' in html
    assert "2 members" in html


def test_a_group_page_lists_current_people_by_role_and_former_ones_as_alumni(client):
    group = make_research_group(slug="systems")
    student, lead, visitor = make_person(name="Student"), make_person(name="Lead"), make_person()
    make_membership(student, group, role=Membership.Role.PHD_STUDENT)
    make_membership(lead, group, role=Membership.Role.LEADER)
    make_membership(visitor, group, role=Membership.Role.VISITOR, end="2020")
    rejoined = make_person(name="Rejoined")
    make_membership(rejoined, group, end="2018")
    make_membership(rejoined, group, start="2022", role=Membership.Role.POSTDOC)
    make_membership(make_person(name="Draft", is_published=False), group)
    Departure.objects.create(person=visitor, last_role="Visitor", next_position="ETH Zürich")

    response = client.get("/groups/systems/")
    by_role = [(role, names(people)) for role, people in response.context["people_by_role"]]
    assert by_role == [
        ("Group leader", ["Lead"]),
        ("Postdoctoral researcher", ["Rejoined"]),
        ("PhD student", ["Student"]),
    ]
    assert names(response.context["alumni"]) == [visitor.name]
    assert "Now at ETH Zürich" in response.content.decode()


def test_a_group_page_lists_papers_while_members_with_the_lists_filters(client):
    group = make_research_group(slug="systems")
    ada = make_person(name="Ada")
    make_membership(ada, group, start="2020")
    make_publication(title="Before", year=2019, authors=[ada])
    make_publication(title="During", year=2021, authors=[ada])
    make_publication(title="During elsewhere", year=2022, authors=[ada], venue=None)
    response = client.get("/groups/systems/")
    assert titles(response) == ["During elsewhere", "During"]
    assert "group" not in response.context["facets"]
    assert titles(client.get("/groups/systems/", {"year": "2021"})) == ["During"]
    html = client.get("/groups/systems/", {"year": "2021"}).content.decode()
    assert 'href="/publications/export.bib?group=systems&amp;year=2021"' in html


def test_a_group_page_shows_its_news_and_news_about_members_then(client):
    group = make_research_group(slug="systems")
    ada = make_person()
    make_membership(ada, group, start="2024")
    make_news(title="About the group", date="2019").groups.add(group)
    make_news(title="Ada then", date="2025-03").people.add(ada)
    make_news(title="Ada before", date="2020").people.add(ada)
    response = client.get("/groups/systems/")
    assert [item.title for item in response.context["news_items"]] == [
        "Ada then",
        "About the group",
    ]


# Areas ---------------------------------------------------------------------------------------


def test_an_area_page_lists_its_people_groups_and_papers(client):
    area = make_area(name="Networking", slug="networking")
    person, other = make_person(name="Ada"), make_person(name="Grace")
    person.research_areas.add(area)
    group = make_research_group(name="Systems")
    group.areas.add(area)
    make_publication(title="Filed", authors=[other]).areas.add(area)
    make_publication(title="Not filed", authors=[person])
    response = client.get("/areas/networking/")
    assert names(response.context["people"]) == ["Ada"]
    assert names(response.context["groups"]) == ["Systems"]
    assert [paper.title for paper in response.context["publications"]] == ["Filed"]
    assert client.get("/areas/").status_code == 200
    assert client.get(f"/areas/{make_area(is_published=False).slug}/").status_code == 404


@pytest.mark.parametrize("rows", [5, 200])
def test_the_areas_list_runs_a_fixed_number_of_queries(client, rows):
    """lab, areas, and the published people, groups and papers counted per area."""
    for _ in range(rows):
        make_area()
    assert count_queries(client, "/areas/") == 5


def test_the_areas_list_is_a_card_per_area_with_its_first_lines_and_counts(client):
    area = make_area(name="Networking", slug="networking", description="Fast **networks**.")
    make_person(name="Ada").research_areas.add(area)
    make_person(name="Hidden", is_published=False).research_areas.add(area)
    make_research_group(name="Systems").areas.add(area)
    make_publication(title="Filed").areas.add(area)
    html = client.get("/areas/").content.decode()
    assert '<h2 class="area-card__name"><a href="/areas/networking/">Networking</a></h2>' in html
    assert '<p class="area-card__summary">Fast networks.</p>' in html
    assert "<span>1 person</span>" in html and "<span>1 group</span>" in html
    assert "<span>1 publication</span>" in html


def test_the_header_offers_areas_only_when_a_published_area_exists(client):
    make_area(slug="draft", is_published=False)
    assert 'href="/areas/"' not in client.get("/people/").content.decode()
    make_area(slug="networking")
    assert 'href="/areas/"' in client.get("/people/").content.decode()


def test_a_filter_without_options_is_left_out_of_the_publication_list(client):
    make_publication(title="Plain", authors=["Outside"])
    html = client.get("/publications/").content.decode()
    assert "None with these filters" not in html
    assert 'id="facet-author"' not in html and 'id="facet-award"' not in html
    assert 'id="facet-type"' in html


# The directory and the publication list ------------------------------------------------------


def test_the_directory_filters_by_group_and_area_with_counts(client):
    group, area = make_research_group(slug="systems", name="Systems"), make_area(slug="ml")
    ada, grace, alan = make_person(name="Ada"), make_person(name="Grace"), make_person(name="Alan")
    make_membership(ada, group)
    make_membership(grace, group, end="2020")  # a former member: not counted, not listed
    ada.research_areas.add(area)
    alan.research_areas.add(area)

    response = client.get("/people/", {"group": "systems"})
    assert names(response.context["current"]) == ["Ada"]
    assert [(option.value, option.count) for option in response.context["options"]["group"]] == [
        ("systems", 1)
    ]
    assert '<option value="systems" selected>Systems (1)</option>' in response.content.decode()
    assert names(client.get("/people/", {"area": "ml"}).context["current"]) == ["Ada", "Alan"]
    both = client.get("/people/", {"area": "ml", "group": "systems"})
    assert names(both.context["current"]) == ["Ada"]
    assert [(option.value, option.count) for option in both.context["options"]["area"]] == [
        ("ml", 1)
    ]


def test_an_old_role_address_moves_to_the_role_filter(client):
    make_person(role_group=make_group(name="PhD Students", slug="phd-students"))
    response = client.get("/people/", {"group": "phd-students", "q": "x"})
    assert response.status_code == 301
    assert response["Location"] == "/people/?q=x&role=phd-students"
    twice = client.get("/people/?group=PhD-Students&group=faculty")
    assert twice.status_code == 200  # "faculty" names no role here: nothing to move
    make_person(role_group=make_group(name="Faculty", slug="faculty"))
    moved = client.get("/people/?group=PhD-Students&group=faculty")
    assert moved["Location"] == "/people/?role=PhD-Students&role=faculty"
    make_research_group(slug="phd-students")  # a research group's slug comes first
    assert client.get("/people/", {"group": "phd-students"}).status_code == 200


def test_an_unknown_group_or_area_is_reported_and_ignored(client):
    make_research_group(slug="systems")
    make_publication(title="Any")
    response = client.get("/publications/", {"group": "nope", "area": "nope"})
    assert response.status_code == 200
    assert titles(response) == ["Any"]
    html = response.content.decode()
    assert "Research group “nope” was ignored" in html
    assert "Research area “nope” was ignored" in html


def test_the_publication_list_filters_by_groups_and_areas_with_counts_and_chips(client):
    systems, networks = make_research_group(slug="systems"), make_research_group(slug="networks")
    area = make_area(slug="ml", name="Machine learning")
    ada, grace = make_person(), make_person()
    make_membership(ada, systems)
    make_membership(grace, networks, end="2019")
    make_publication(title="Ada's", year=2024, authors=[ada]).areas.add(area)
    make_publication(title="Grace's then", year=2018, authors=[grace])
    make_publication(title="Grace's now", year=2024, authors=[grace])

    response = client.get("/publications/")
    counts = {option.value: option.count for option in response.context["facets"]["group"].options}
    assert counts == {"systems": 1, "networks": 1}
    assert titles(client.get("/publications/", {"group": "networks"})) == ["Grace's then"]
    both = client.get("/publications/", {"group": ["networks", "systems"]})
    assert titles(both) == ["Ada's", "Grace's then"]
    narrowed = client.get("/publications/", {"area": "ml"})
    assert titles(narrowed) == ["Ada's"]
    assert [chip.label for chip in narrowed.context["active_filters"]] == [
        "Research area: Machine learning"
    ]
    assert [(o.value, o.count) for o in narrowed.context["facets"]["group"].options] == [
        ("systems", 1)
    ]


def test_the_feed_and_exports_follow_the_group_filter(client):
    group = make_research_group(slug="systems")
    ada = make_person()
    make_membership(ada, group, start="2020")
    make_publication(title="In the group", year=2021, authors=[ada])
    make_publication(title="Before it", year=2010, authors=[ada])
    bib = client.get("/publications/export.bib", {"group": "systems"}).content.decode()
    assert "In the group" in bib and "Before it" not in bib
    feed = client.get("/publications/feed/", {"group": "systems"}).content.decode()
    assert "In the group" in feed and "Before it" not in feed


# Profiles ------------------------------------------------------------------------------------


def test_profiles_show_advisors_and_students_current_and_graduated(client):
    professor = make_person(name="Prof Ada", slug="ada")
    current, graduated = make_person(name="Current Student"), make_person(name="Graduate")
    draft = make_person(name="Draft Student", is_published=False)
    outside = make_external(name="Co Advisor", homepage="https://example.org/co")
    Advising.objects.create(advisee=current, position=1, advisor=professor)
    Advising.objects.create(
        advisee=current, position=2, advisor=outside, kind=Advising.Kind.CO_ADVISOR
    )
    Advising.objects.create(advisee=graduated, position=1, advisor=professor, is_current=False)
    Advising.objects.create(advisee=draft, position=1, advisor=professor)

    html = client.get(current.get_absolute_url()).content.decode()
    assert (
        '<p class="profile__advisors">Advised by <a href="/people/ada/"><bdi>Prof Ada</bdi></a> and '
        '<a href="https://example.org/co" rel="noopener"><bdi>Co Advisor</bdi></a> (co-advisor)</p>'
    ) in html
    response = client.get("/people/ada/")
    groups = dict(response.context["person"].student_groups)
    assert [advising.advisee.name for advising in groups["Current"]] == ["Current Student"]
    assert [advising.advisee.name for advising in groups["Graduated"]] == ["Graduate"]
    assert "Draft Student" not in response.content.decode()


def test_a_profile_names_close_collaborators_groups_and_an_alumnus_next_position(client):
    person = make_person(name="Ada", slug="ada")
    group = make_research_group(name="Systems")
    make_membership(person, group, start="2019", end="2024", role=Membership.Role.PHD_STUDENT)
    Collaboration.objects.create(person=person, position=1, collaborator=make_external())
    Departure.objects.create(
        person=person,
        last_role="PhD student",
        left="2024-07",
        next_position="NVIDIA Research",
        thesis_title="On <Systems>",
        thesis_url="https://example.org/thesis.pdf",
    )
    html = client.get("/people/ada/").content.decode()
    assert "2019 – 2024" in html and "PhD student" in html
    assert '<p class="profile__next">Now at NVIDIA Research</p>' in html
    assert 'Left as PhD student</span> <span class="cv__when">Jul 2024</span>' in html
    assert '<a href="https://example.org/thesis.pdf" rel="noopener">On &lt;Systems&gt;</a>' in html
    assert 'id="close-collaborators"' in html


def test_the_directory_shows_where_alumni_went(client):
    alumni = make_group(name="Alumni", is_alumni=True)
    person = make_person(name="Former", role_group=alumni)
    Departure.objects.create(person=person, last_role="Postdoc", next_position="Google")
    make_person(name="Still here")
    html = client.get("/people/").content.decode()
    assert "Now at Google" in html
    assert html.count("Now at") == 1


def test_a_paper_without_a_year_is_a_current_groups_paper():
    group = make_research_group()
    ada = make_person()
    make_membership(ada, group, start="2020")
    make_publication(title="Preprint", year=None, authors=[ada])
    assert [paper.title for paper in Publication.objects.of_groups(group)] == ["Preprint"]
    assert Client().get("/publications/", {"group": group.slug}).status_code == 200
