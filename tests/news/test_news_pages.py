import pytest

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("seeded")]


def titles(response) -> list[str]:
    return [item.title for item in response.context["page"].object_list]


def test_news_lists_newest_first_at_each_dates_precision(client):
    response = client.get("/news/")
    assert titles(response)[0] == "Linear Attention, Visualized"
    html = response.content.decode()
    assert '<time datetime="2026-07-25">25 Jul 2026</time>' in html
    assert '<time datetime="2026-05">May 2026</time>' in html
    assert '<time datetime="2026">2026</time>' in html


def test_news_filters_by_person_and_year(client):
    assert titles(client.get("/news/", {"person": "haoran-zhang"})) == [
        "Linear Attention, Visualized"
    ]
    assert len(titles(client.get("/news/", {"person": "zerui-wang", "year": "2026"}))) == 4
    assert titles(client.get("/news/", {"year": "2025"})) == []


def test_news_ignores_a_bad_year_plainly(client):
    response = client.get("/news/", {"year": "abc"})
    assert response.status_code == 200
    assert "Year “abc” was ignored" in response.content.decode()
    assert len(titles(response)) == 5


def test_news_item_page_links_its_people_and_publications(client):
    response = client.get("/news/jet-long-accepted-to-neurips-2026/")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<a href="/people/zerui-wang/">Zerui Wang</a>' in html
    assert "Jet-Long: Efficient Long-Context Extension with Dynamic Bifocal RoPE" in html


def test_home_shows_latest_news_recent_publications_and_people(client):
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Latest news" in html and "Linear Attention, Visualized" in html
    assert "Recent publications" in html
    assert "Jet-Long" in html
    assert [person.name for person in response.context["people"]] == [
        "Hang Zhu",
        "Haoran Zhang",
        "Zerui Wang",
        "Hao Zhang",
    ]


def test_the_chosen_year_stays_selected(client):
    html = client.get("/news/", {"year": "2026"}).content.decode()
    assert '<option value="2026" selected>2026</option>' in html
