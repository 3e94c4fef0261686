"""The public pages of projects, and where other pages show projects and funding."""

import datetime

import feedparser
import pytest

from people.models import ResearchArea, ResearchGroup
from tests.api.lists import facet_counts_of_the_api, facet_counts_of_the_page
from tests.factories import (
    assert_as_many_queries_for_many_rows,
    assert_off_every_public_page,
    make_event,
    make_news,
    make_person,
    make_publication,
    sitemap_locations,
)
from tests.outputs.conftest import make_outsider
from tests.page_head import PageHead
from tests.projects.conftest import make_funder, make_project

# The schema.org properties of ResearchProject (an Organization) the page writes, and of Grant
# and Organization inside `funding`: a key outside them is not schema.org.
PROJECT_PROPERTIES = {
    "@context", "@type", "@id", "url", "name", "description", "foundingDate",
    "dissolutionDate", "sameAs", "member", "funding",
}  # fmt: skip
GRANT_PROPERTIES = {"@type", "funder", "identifier", "name", "url"}
ORGANIZATION_PROPERTIES = {"@type", "name", "identifier", "sameAs"}


def json_ld(html: str) -> dict:
    (data,) = PageHead(html).json_ld
    return data


def options(page, name: str) -> dict[str, int]:
    return {option.value: option.count for option in page.context["facets"][name].options}


def slugs(page) -> list[str]:
    return [project.slug for project in page.context["page"].object_list]


def test_the_list_shows_every_project_with_counts_beside_status_and_funder(client, lab_projects):
    page = client.get("/projects/")
    assert page.status_code == 200
    assert slugs(page) == ["reconfigurable-networks", "analytical-engines"]
    assert options(page, "status") == {"current": 1, "past": 1}
    assert options(page, "funder") == {"erc": 1, "nsf": 1}
    assert options(page, "member") == {"hang-zhu": 1, "ada-lovelace": 1}
    assert "Funded by European Research Council" in page.text


def test_the_status_filter_keeps_the_past_projects_and_counts_the_others(client, lab_projects):
    page = client.get("/projects/?status=past")
    assert slugs(page) == ["analytical-engines"]
    assert options(page, "status") == {"current": 1, "past": 1}
    assert options(page, "funder") == {"nsf": 1}


def test_the_funder_member_group_area_and_word_filters_narrow_the_list(client, lab_projects):
    group = ResearchGroup.objects.create(name="Networks", slug="networks")
    area = ResearchArea.objects.create(name="Optics", slug="optics")
    lab_projects["klotski"].groups.add(group)
    lab_projects["engines"].areas.add(area)
    assert slugs(client.get("/projects/?funder=erc")) == ["reconfigurable-networks"]
    assert slugs(client.get("/projects/?member=ada-lovelace")) == ["analytical-engines"]
    assert slugs(client.get("/projects/?group=networks")) == ["reconfigurable-networks"]
    assert slugs(client.get("/projects/?area=optics")) == ["analytical-engines"]
    # Words start words of the title, the summary, a person's name, a funder or an award.
    assert slugs(client.get("/projects/?q=rewire")) == ["reconfigurable-networks"]
    assert slugs(client.get("/projects/?q=zhao")) == ["reconfigurable-networks"]
    assert slugs(client.get("/projects/?q=CNS-1234567")) == ["analytical-engines"]


def test_a_value_the_list_does_not_know_is_said_not_a_server_error(client, lab_projects):
    page = client.get("/projects/?status=someday&funder=nobody")
    assert page.status_code == 200
    assert len(page.context["ignored"]) == 2
    assert client.get("/projects/feed/?funder=nobody").status_code == 400
    assert client.get("/api/projects/?status=someday").status_code == 400


def test_drafts_stay_off_every_public_page(client, lab_projects):
    draft = make_project(title="Secret plan", is_published=False, people=[lab_projects["hang"]])
    pages = ["/projects/", "/projects/feed/", "/people/hang-zhu/"]
    assert_off_every_public_page(client, draft, title="Secret plan", pages=pages)
    assert client.get("/api/projects/secret-plan/").status_code == 404


def test_the_project_page_names_its_people_roles_funding_papers_software_and_news(
    client, lab_projects
):
    make_news(title="Klotski wins a prize").publications.add(lab_projects["paper"])
    make_news(title="Unrelated news")
    html = client.get("/projects/reconfigurable-networks/").text
    assert 'href="/people/hang-zhu/"' in html and "Principal investigator" in html
    assert "Bo Zhao" in html and "Collaborator" in html
    # The funder links to its Crossref Funder Registry record, with the award number.
    assert 'href="https://doi.org/10.13039/501100000781"' in html
    assert "award 101012345" in html
    assert 'href="/publications/klotski/"' in html
    assert 'href="/outputs/klotski-simulator/"' in html
    assert "Klotski wins a prize" in html and "Unrelated news" not in html
    assert "<em>rewire</em>" in html


def test_the_project_page_describes_itself_as_a_schema_org_research_project(client, lab_projects):
    data = json_ld(client.get("/projects/reconfigurable-networks/").text)
    assert data["@type"] == "ResearchProject"
    assert set(data) <= PROJECT_PROPERTIES
    assert data["foundingDate"] == "2023-09"
    (grant,) = data["funding"]
    assert set(grant) <= GRANT_PROPERTIES
    assert grant["@type"] == "Grant" and grant["identifier"] == "101012345"
    funder = grant["funder"]
    assert set(funder) <= ORGANIZATION_PROPERTIES
    assert funder["@type"] == "Organization"
    assert funder["identifier"]["value"] == "10.13039/501100000781"
    assert funder["sameAs"] == "https://doi.org/10.13039/501100000781"
    leader, outsider = data["member"]
    assert leader["@type"] == "Role" and leader["roleName"] == "Principal investigator"
    assert leader["member"]["url"] == "http://testserver/people/hang-zhu/"
    assert leader["member"]["identifier"]["value"] == "0000-0002-1825-0097"
    assert "url" not in outsider["member"]


def test_the_paper_page_says_who_funded_it_and_its_json_ld_carries_the_funding(
    client, lab_projects
):
    html = client.get("/publications/klotski/").text
    assert "Funded by" in html
    assert 'href="https://doi.org/10.13039/501100000781"' in html and "award 101012345" in html
    assert 'href="/projects/reconfigurable-networks/"' in html
    (grant,) = json_ld(html)["funding"]
    assert grant["funder"]["name"] == "European Research Council"
    assert grant["identifier"] == "101012345"


def test_a_paper_acknowledges_a_grant_without_being_in_a_project(client, lab_projects):
    paper = make_publication(title="Alone", slug="alone", year=2024)
    lab_projects["grant"].publications.add(paper)
    html = client.get("/publications/alone/").text
    assert "Funded by" in html and "award 101012345" in html
    assert "Projects" not in html.split("<main", 1)[1]


def test_a_paper_without_funding_says_nothing_of_it(client, lab_projects):
    page = client.get("/publications/engines/")
    assert "Funded by" not in page.text
    assert "funding" not in json_ld(page.text)


def test_a_profile_a_group_and_an_area_show_their_projects(client, lab_projects):
    group = ResearchGroup.objects.create(name="Networks", slug="networks")
    area = ResearchArea.objects.create(name="Optics", slug="optics")
    lab_projects["klotski"].groups.add(group)
    lab_projects["klotski"].areas.add(area)
    profile = client.get("/people/hang-zhu/").text
    assert 'href="/projects/reconfigurable-networks/"' in profile
    assert 'href="/projects/?member=hang-zhu"' in profile
    assert 'href="/projects/analytical-engines/"' not in profile
    for address in ("/groups/networks/", "/areas/optics/"):
        html = client.get(address).text
        assert 'href="/projects/reconfigurable-networks/"' in html
        assert 'href="/projects/analytical-engines/"' not in html


def test_a_page_without_projects_shows_no_section_and_the_header_no_link(client, db):
    make_person(name="Hang Zhu", slug="hang-zhu")
    html = client.get("/people/hang-zhu/").text
    assert 'id="projects"' not in html
    assert 'href="/projects/"' not in html


def test_the_header_links_to_the_projects_once_there_are_some(client, lab_projects):
    assert 'href="/projects/"' in client.get("/people/").text


def test_the_feed_lists_the_projects_newest_first_and_narrows_by_funder(client, lab_projects):
    feed = feedparser.parse(client.get("/projects/feed/").content)
    assert not feed.bozo
    assert [entry.title for entry in feed.entries] == [
        "Reconfigurable networks",
        "Analytical engines",
    ]
    assert "published" not in feed.entries[0]  # started in a month, not on a known day
    assert [tag.term for tag in feed.entries[0].tags] == ["European Research Council"]
    narrowed = feedparser.parse(client.get("/projects/feed/?funder=nsf").content)
    assert [entry.title for entry in narrowed.entries] == ["Analytical engines"]


def test_the_sitemap_lists_the_projects_and_their_list(client, lab_projects):
    locations = sitemap_locations(client)
    assert "http://testserver/projects/" in locations
    assert "http://testserver/projects/reconfigurable-networks/" in locations


def test_the_publication_list_filters_by_funder_with_a_count_beside_each(client, lab_projects):
    lab_projects["engines"].grants.get().publications.add(lab_projects["other_paper"])
    page = client.get("/publications/")
    assert options(page, "funder") == {"erc": 1, "nsf": 1}
    narrowed = client.get("/publications/?funder=nsf")
    assert [paper.slug for paper in narrowed.context["page"].object_list] == ["engines"]
    # Counted under the other filters, its own aside.
    assert options(narrowed, "funder") == {"erc": 1, "nsf": 1}
    assert options(client.get("/publications/?year=2023"), "funder") == {"erc": 1}
    # A chip above the list names the funder and drops it.
    (chip,) = narrowed.context["active_filters"]
    assert chip.label == "Funder: National Science Foundation"
    assert chip.remove_query == ""
    export = client.get("/publications/export.bib?funder=nsf").text
    assert "Engines" in export and "Klotski" not in export
    assert client.get("/publications/export.bib?funder=nobody").status_code == 400


def test_the_apis_publication_list_takes_the_funder_filter_as_the_page_does(client, lab_projects):
    lab_projects["engines"].grants.get().publications.add(lab_projects["other_paper"])
    data = client.get("/api/publications/?funder=nsf").json()
    assert [paper["slug"] for paper in data["results"]] == ["engines"]
    assert {option["value"]: option["count"] for option in data["facets"]["funder"]} == {
        "erc": 1,
        "nsf": 1,
    }
    page = client.get("/publications/?funder=nsf")
    assert facet_counts_of_the_api(data) == facet_counts_of_the_page(page)
    refused = client.get("/api/publications/?funder=nobody")
    assert refused.status_code == 400 and "Funder “nobody”" in refused.json()["detail"]
    operation = client.get("/api/openapi.json").json()["paths"]["/api/publications/"]["get"]
    (funder,) = [p for p in operation["parameters"] if p["name"] == "funder"]
    assert funder["schema"]["type"] == "array"
    assert funder["schema"]["items"]["examples"] == ["erc", "nsf"]


def test_the_publication_list_offers_no_funder_filter_when_no_paper_is_funded(client, db):
    make_publication(title="Plain", slug="plain", year=2024)
    make_funder(name="Idle Foundation")
    page = client.get("/publications/")
    assert "funder" not in page.context["facets"]
    assert "Idle Foundation" not in page.text


def test_the_api_lists_projects_and_funders_and_both_are_in_the_schema(client, lab_projects):
    answer = client.get("/api/projects/?status=current").json()
    (project,) = answer["results"]
    assert project["slug"] == "reconfigurable-networks" and project["status"] == "current"
    (grant,) = project["grants"]
    assert grant["funder"]["registry_id"] == "10.13039/501100000781"
    assert grant["award_number"] == "101012345"
    one = client.get("/api/projects/reconfigurable-networks/").json()
    assert [person["role"] for person in one["people"]] == [
        "Principal investigator",
        "Collaborator",
    ]
    assert [paper["slug"] for paper in one["publications"]] == ["klotski"]
    assert [output["slug"] for output in one["outputs"]] == ["klotski-simulator"]
    funders = client.get("/api/funders/").json()
    assert [funder["slug"] for funder in funders] == ["erc", "nsf"]
    paths = client.get("/api/openapi.json").json()["paths"]
    assert {"/api/projects/", "/api/projects/{slug}/", "/api/funders/"} <= set(paths)


@pytest.mark.parametrize("address", ["/projects/", "/api/projects/", "/projects/feed/"])
def test_a_list_runs_as_many_queries_for_thirty_projects_as_for_three(client, db, address):
    """The people and grants are prefetched for every row at once, and each facet is one
    aggregate: no query per project, per person or per grant."""
    members = [make_person(name=f"Member {number}") for number in range(3)]
    funders = [make_funder() for _ in range(3)]

    def add(number: int) -> None:
        make_project(
            start=f"{2000 + number % 20}",
            end=f"{2010 + number % 20}" if number % 2 else None,
            people=[members[number % 3], (make_outsider(), "collaborator")],
            grants=[(funders[number % 3], f"A-{number}"), funders[(number + 1) % 3]],
        )

    assert_as_many_queries_for_many_rows(client, address, add, few=3, many=30)


def test_a_project_page_runs_as_many_queries_for_thirty_people_and_papers_as_for_three(client, db):
    funder = make_funder()
    project = make_project(slug="big", people=[make_person()], grants=[(funder, "G-0")])

    def add(number: int) -> None:
        project.people.create(position=100 + project.people.count(), researcher=make_outsider())
        paper = make_publication(year=2020)
        project.publications.add(paper)
        project.grants.create(funder=make_funder(), award_number=f"G-{paper.pk}")

    assert_as_many_queries_for_many_rows(client, "/projects/big/", add, few=3, many=30)


def test_codemeta_of_software_from_a_funded_project_names_its_grants_and_funders(
    client, lab_projects
):
    data = client.get("/outputs/klotski-simulator/codemeta.json").json()
    (grant,) = data["funding"]
    assert grant == {
        "@type": "Grant",
        "funder": {
            "@type": "Organization",
            "name": "European Research Council",
            "identifier": {
                "@type": "PropertyValue",
                "propertyID": "Crossref Funder ID",
                "value": "10.13039/501100000781",
            },
            "sameAs": "https://doi.org/10.13039/501100000781",
        },
        "identifier": "101012345",
    }
    assert [funder["name"] for funder in data["funder"]] == ["European Research Council"]
    lab_projects["klotski"].outputs.clear()
    assert "funding" not in client.get("/outputs/klotski-simulator/codemeta.json").json()


def test_the_projects_pages_are_in_chinese_under_its_prefix(client, lab_projects):
    listed = client.get("/zh-hans/projects/").text
    assert "<h1>项目</h1>" in listed and "进行中" in listed and "资助方" in listed
    paper = client.get("/zh-hans/publications/klotski/").text
    assert "资助方" in paper and "资助编号 101012345" in paper


def test_roles_and_the_kinds_of_outputs_and_events_are_named_in_chinese(client, lab_projects):
    project = client.get("/zh-hans/projects/reconfigurable-networks/").text
    assert "Hang Zhu</bdi></a>, 项目负责人</li>" in project
    assert "Bo Zhao</bdi>, 合作者</li>" in project
    assert "(软件)" in project
    output = client.get("/zh-hans/outputs/klotski-simulator/").text
    assert "<dd>软件</dd>" in output
    make_event(title="Caching", starts_in=datetime.timedelta(days=1), kind="seminar")
    events = client.get("/zh-hans/events/").text
    assert '<span class="badge">研讨班</span>' in events
