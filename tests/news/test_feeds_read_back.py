"""Both Atom feeds read back with feedparser, as feed readers read them: valid by RFC 4287
(every entry has its `<updated>`, even a paper without a year), an empty feed for a member
without news, and a refusal a feed reader can show for a value no list knows; the API's news
filter answers the same way, in JSON."""

import feedparser
import pytest

from news.models import NewsItem
from tests.factories import make_news, make_person, make_publication

pytestmark = pytest.mark.django_db


def read_feed(client, url: str) -> feedparser.FeedParserDict:
    response = client.get(url)
    assert response.status_code == 200
    feed = feedparser.parse(response.content)
    assert not feed.bozo, feed.get("bozo_exception")
    return feed


def test_every_entry_of_the_publication_feed_has_an_updated_time_even_without_a_year(client):
    make_publication(title="Dated", year=2024, authors=["Hang Zhu"])
    make_publication(title="Undated", year=None, authors=["Hang Zhu"])
    feed = read_feed(client, "/publications/feed/")
    assert sorted(entry.title for entry in feed.entries) == ["Dated", "Undated"]
    assert all(entry.get("updated_parsed") for entry in feed.entries)
    undated = next(entry for entry in feed.entries if entry.title == "Undated")
    assert "published" not in undated  # no year, no date of publication made up


def test_the_news_feed_of_a_member_without_news_is_an_empty_feed(client):
    hang = make_person(name="Hang Zhu", slug="hang-zhu")
    make_news(title="About someone else")
    feed = read_feed(client, "/news/feed/?person=hang-zhu")
    assert feed.entries == []
    assert feed.feed.title.endswith("news (Hang Zhu)")
    assert hang.news_items.count() == 0


def test_a_person_no_list_knows_is_refused_by_the_news_feed_in_plain_text(client):
    make_news(title="News")
    response = client.get("/news/feed/?person=nobody")
    assert response.status_code == 400
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response.content.decode().startswith("Person “nobody” was ignored")


def test_the_apis_news_filter_answers_an_empty_list_for_a_member_without_news(client):
    make_person(name="Hang Zhu", slug="hang-zhu")
    make_news(title="News")
    data = client.get("/api/news/?person=hang-zhu").json()
    assert (data["count"], data["results"]) == (0, [])
    refused = client.get("/api/news/?person=nobody")
    assert refused.status_code == 400
    assert refused["Content-Type"] == "application/json; charset=utf-8"
    assert "Person “nobody” was ignored" in refused.json()["detail"]


def test_the_news_page_offers_a_member_asked_for_though_not_in_the_news(client):
    make_person(name="Hang Zhu", slug="hang-zhu")
    make_news(title="News")
    page = client.get("/news/?person=hang-zhu")
    assert page.status_code == 200
    assert list(page.context["page"].object_list) == []
    assert '<option value="hang-zhu" selected>Hang Zhu</option>' in page.content.decode()
    assert NewsItem.objects.count() == 1
