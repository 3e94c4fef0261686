"""The news feed narrowed by the news page's filters: one per person, as the publications feed
is one per member."""

import xml.etree.ElementTree as ET

from news.models import NewsItem
from tests.cases import SeededTestCase
from tests.page_head import PageHead

ATOM = "{http://www.w3.org/2005/Atom}"


def feed_titles(client, query: str) -> tuple[str, list[str]]:
    response = client.get(f"/news/feed/?{query}")
    assert response.status_code == 200
    root = ET.fromstring(response.content)
    entries = [entry.findtext(f"{ATOM}title") for entry in root.findall(f"{ATOM}entry")]
    return root.findtext(f"{ATOM}title"), entries


class SeededNewsFeedFilterTests(SeededTestCase):
    """Over the seed: its news about several people over several years."""

    def test_a_persons_news_feed_holds_exactly_the_news_about_them(self):
        title, entries = feed_titles(self.client, "person=haoran-zhang")
        expected = NewsItem.objects.published().filter(people__slug="haoran-zhang")
        assert entries == [item.title for item in expected]
        assert 0 < len(entries) < NewsItem.objects.published().count()
        assert title.endswith("news (Haoran Zhang)")

    def test_the_news_feed_honours_the_year_filter_as_the_page_does(self):
        page = self.client.get("/news/?year=2026&person=haoran-zhang")
        _, entries = feed_titles(self.client, "year=2026&person=haoran-zhang")
        assert entries == [item.title for item in page.context["page"].object_list]
        assert entries
        assert feed_titles(self.client, "year=2025")[1] == []

    def test_a_value_the_news_page_would_ignore_is_refused_by_the_feed(self):
        assert self.client.get("/news/feed/?person=nobody").status_code == 400
        assert self.client.get("/news/feed/?year=twenty").status_code == 400

    def test_the_profile_and_the_filtered_news_page_link_their_feeds(self):
        profile = PageHead(self.client.get("/people/haoran-zhang/").content.decode())
        feeds = [link["href"] for link in profile.link("alternate")]
        assert "/news/feed/?person=haoran-zhang" in feeds
        news = PageHead(self.client.get("/news/?person=haoran-zhang").content.decode())
        assert "/news/feed/?person=haoran-zhang" in [
            link["href"] for link in news.link("alternate")
        ]
