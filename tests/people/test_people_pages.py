"""The directory and the profiles, as the four seeded profiles show them."""

import pytest

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("seeded")]


def names(response) -> list[str]:
    return [person.name for person in response.context["current"] + response.context["alumni"]]


def test_directory_groups_people_in_the_staff_order_ungrouped_last(client):
    response = client.get("/people/")
    assert response.status_code == 200
    html = response.content.decode()
    scientists = html.index(">Research Scientists</h2>")
    students = html.index(">PhD Students</h2>")
    members = html.index(">Members</h2>")
    assert scientists < html.index("Hang Zhu") < html.index("Haoran Zhang") < students
    assert students < html.index("Zerui Wang") < members < html.index("Hao Zhang")
    assert ">Alumni</h2>" not in html  # no alumni in the seed


def test_directory_filters_by_group_and_searches_name_alias_and_interest(client):
    assert names(client.get("/people/", {"group": "phd-students"})) == ["Zerui Wang"]
    assert names(client.get("/people/", {"q": "gpu"})) == ["Zerui Wang"]
    assert names(client.get("/people/", {"q": "haoran"})) == ["Haoran Zhang"]
    assert names(client.get("/people/", {"q": "zhang", "group": "research-scientists"})) == [
        "Haoran Zhang"
    ]


def test_directory_reports_an_unknown_group_and_a_search_that_finds_nobody(client):
    response = client.get("/people/", {"group": "wizards"})
    assert response.status_code == 200
    assert "Group “wizards” was ignored" in response.content.decode()
    assert len(names(response)) == 4
    nobody = client.get("/people/", {"q": "astrology"})
    assert "Nobody matches" in nobody.content.decode()


def test_cards_without_a_photo_show_a_generated_avatar(client):
    html = client.get("/people/").content.decode()
    assert html.count('<svg class="avatar avatar--initials') == 4
    assert 'font-weight="600">HZ</text>' in html
    assert 'font-weight="600">ZW</text>' in html


def test_profile_shows_cv_sections_with_dates_at_their_precision(client):
    html = client.get("/people/zerui-wang/").content.decode()
    assert "Sep 2023 – Present" in html
    assert "May 2026 – Present" in html
    assert "Started Oct 2025" in html
    assert "Jan 1" not in html and "Jan. 1" not in html
    haoran = client.get("/people/haoran-zhang/").content.decode()
    assert "2019 – 2024" in haoran
    assert "Jul 2024 – Feb 2026" in haoran
    assert "CIS 548: Operating Systems Design and Implementation" in haoran
    assert "Spring 2021" in haoran


def test_profile_never_prints_a_plain_email_address(client):
    html = client.get("/people/hang-zhu/").content.decode()
    assert "hangzhu16 [at] gmail [dot] com" in html
    assert "hangzhu16@gmail.com" not in html
    assert "mailto:" not in html


def test_profile_selects_the_newest_publications_and_links_to_all_of_them(client):
    response = client.get("/people/hang-zhu/")
    years = [publication.year for publication in response.context["publications"]]
    assert len(years) == 8 and years == sorted(years, reverse=True)
    html = response.content.decode()
    assert "Selected publications" in html
    assert '<a class="more-link" href="/publications/?author=hang-zhu">All 12 publications' in html


def test_profile_shows_news_and_awards(client):
    haoran = client.get("/people/haoran-zhang/").content.decode()
    assert "Linear Attention, Visualized" in haoran
    assert "25 Jul 2026" in haoran
    hao = client.get("/people/hao-zhang/").content.decode()
    assert "Jay Lepreau Best Paper Award" in hao
    assert "No publications listed yet." in hao


def test_unknown_profile_is_a_404_in_the_sites_design(client):
    response = client.get("/people/nobody/")
    assert response.status_code == 404
    assert "Page not found" in response.content.decode()
