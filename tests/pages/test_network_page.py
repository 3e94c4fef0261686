"""/network/ and the network on profiles, groups and areas: an image with a title and a
description, the same as a table, years chosen with a form, and a fixed number of queries."""

import re

import pytest

from people.models import Membership, ResearchArea, ResearchGroup
from tests.factories import count_queries, html_of, make_person, make_publication

pytestmark = pytest.mark.django_db


@pytest.fixture
def lab():
    ada, grace, alan = (
        make_person(name=name, slug=name.lower()) for name in ["Ada", "Grace", "Alan"]
    )
    make_publication(authors=[ada, grace], year=2019)
    make_publication(authors=[ada, grace], year=2023)
    make_publication(authors=[ada, alan], year=2023)
    return {"ada": ada, "grace": grace, "alan": alan}


def table_rows(html: str) -> list[str]:
    """Each row of the network's table as its text, tags and spaces dropped."""
    body = html.split('class="network-table"', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r"<tr><th scope=\"row\">(.*?)</tr>", body, re.S)
    return [" ".join(re.sub(r"<[^>]+>", " ", row).split()) for row in rows]


def test_the_lab_network_is_an_image_with_a_title_and_a_table_of_who_wrote_with_whom(client, lab):
    html = client.get("/network/").content.decode()

    svg = re.search(r"<svg class=\"network__picture\"[^>]*>", html).group(0)
    assert 'role="img"' in svg and 'aria-labelledby="network-title network-desc"' in svg
    assert '<title id="network-title">' in html and '<desc id="network-desc">' in html
    assert html.count("<circle ") == 3 and html.count("<line ") == 2
    assert table_rows(html) == ["Ada 3 Grace (2), Alan (1)", "Grace 2 Ada (2)", "Alan 1 Ada (1)"]
    # Under the strict Content-Security-Policy: no inline style, no script.
    assert not re.search(r"<[^>]+\sstyle=", html) and "<script>" not in html


def test_years_narrow_the_network(client, lab):
    html = client.get("/network/?year_min=2020&year_max=2024").content.decode()
    assert table_rows(html) == ["Ada 2 Alan (1), Grace (1)", "Alan 1 Ada (1)", "Grace 1 Ada (1)"]
    assert 'value="2020"' in html and 'value="2024"' in html


def test_a_year_that_is_no_year_is_reported_on_its_field_and_left_out(client, lab):
    html = html_of(client, "/network/?year_min=soon&year_max=99999")
    assert "Enter a whole number." in html
    assert "Ensure this value is less than or equal to" in html
    assert html.count('aria-invalid="true"') == 2
    assert table_rows(html)[0] == "Ada 3 Grace (2), Alan (1)"


def test_years_given_the_wrong_way_round_are_read_in_order_and_said_so(client, lab):
    html = client.get("/network/?year_min=2024&year_max=2020").content.decode()
    assert "were read as from 2020 to 2024" in html
    assert table_rows(html)[0] == "Ada 2 Alan (1), Grace (1)"


def test_a_members_network_has_them_in_the_middle_and_only_their_papers(client, lab):
    html = client.get("/network/?person=grace").content.decode()
    assert table_rows(html) == ["Ada 2 Grace (2)", "Grace 2 Ada (2)"]
    # Grace's dot is the first drawn, in the middle of the picture; her name the first named.
    assert re.search(r'<g class="network__dots"><circle cx="320.0" cy="260.0"', html)
    assert re.search(r'<g class="network__names"><text [^>]*>Grace<', html)
    assert "Co-author network of Grace" in html
    assert client.get("/network/?person=nobody").status_code == 404


def test_profiles_groups_and_areas_show_their_network_and_link_to_its_years(client, lab):
    group = ResearchGroup.objects.create(name="Systems", slug="systems")
    area = ResearchArea.objects.create(name="Networks", slug="networks")
    group.areas.add(area)
    for person in lab.values():
        Membership.objects.create(group=group, person=person, role="leader")
    for publication in lab["ada"].authorships.all():
        publication.publication.areas.add(area)

    for page, link in [
        ("/people/ada/", "/network/?person=ada"),
        ("/groups/systems/", "/network/?group=systems"),
        ("/areas/networks/", "/network/?area=networks"),
    ]:
        html = client.get(page).content.decode()
        assert 'role="img"' in html and "Who wrote with whom" in html, page
        assert f'href="{link}"' in html, page
        network = client.get(link).content.decode()
        assert table_rows(network)[0].startswith("Ada"), link


def test_a_profile_without_a_coauthor_in_the_lab_shows_no_network(client, lab):
    loner = make_person(name="Loner", slug="loner")
    make_publication(authors=[loner, "Someone Outside"])
    assert 'role="img"' not in client.get("/people/loner/").content.decode()


@pytest.mark.parametrize("papers", [3, 60])
def test_the_network_page_runs_a_fixed_number_of_queries(client, papers):
    """The lab row, the members with most papers, their pairs: none per paper or member."""
    members = [make_person(name=f"Member {number}") for number in range(6)]
    for number in range(papers):
        make_publication(
            authors=[members[number % 6], members[(number + 1) % 6]], year=2000 + number % 20
        )
    assert count_queries(client, "/network/?year_min=2001") == 3
