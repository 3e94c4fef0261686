"""A research group's news: /news/?group= narrows the news page as the group's page counts its
news, /news/feed/?group= is its Atom feed (read back with feedparser, as feed readers read it),
and the group's page links the feed."""

import feedparser

from news.models import NewsItem
from people.models import ResearchGroup
from tests.cases import SeededTestCase, parametrize
from tests.department import add_groups_to_seed
from tests.page_head import PageHead


def read_feed(client, query: str):
    response = client.get(f"/news/feed/?{query}")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/atom+xml")
    feed = feedparser.parse(response.content)
    assert not feed.bozo, feed.get("bozo_exception")
    return feed


class SeededGroupNewsTests(SeededTestCase):
    """Over the seed with research groups: Zerui Wang, in Machine Learning Systems since Sep
    2023, is in four news items of 2026; Haoran Zhang left it in 2024, and his 2026 news
    belongs to Networked Systems, which he joined in 2025."""

    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        add_groups_to_seed()

    def expected_titles(self, slug: str) -> list[str]:
        group = ResearchGroup.objects.get(slug=slug)
        return [item.title for item in NewsItem.objects.published().of_group(group)]

    @parametrize("slug", ["ml-systems", "networked-systems"])
    def test_a_groups_feed_holds_exactly_its_news(self, slug):
        feed = read_feed(self.client, f"group={slug}")
        expected = self.expected_titles(slug)
        assert [entry.title for entry in feed.entries] == expected
        assert 0 < len(expected) < NewsItem.objects.published().count()
        group = ResearchGroup.objects.get(slug=slug)
        assert feed.feed.title.endswith(f"news ({group.name})")
        assert feed.feed.link == f"http://testserver/news/?group={slug}"

    def test_the_two_groups_feeds_split_the_news_by_membership_at_the_time(self):
        ml_systems = {entry.title for entry in read_feed(self.client, "group=ml-systems").entries}
        networked = {
            entry.title for entry in read_feed(self.client, "group=networked-systems").entries
        }
        about = {
            slug: set(
                NewsItem.objects.published()
                .filter(people__slug=slug)
                .values_list("title", flat=True)
            )
            for slug in ["zerui-wang", "haoran-zhang"]
        }
        assert ml_systems == about["zerui-wang"]
        assert networked == about["haoran-zhang"]

    def test_the_feed_and_the_news_page_filter_by_group_alike(self):
        page = self.client.get("/news/?group=ml-systems")
        listed = [item.title for item in page.context["page"].object_list]
        assert listed == self.expected_titles("ml-systems")
        assert 'name="group"' in page.content.decode()
        feed = read_feed(self.client, "group=ml-systems&year=2026")
        assert [entry.title for entry in feed.entries] == listed

    @parametrize(
        "value",
        ["hidden-group", "no-such-group"],
        ids=["a draft group", "an unknown group"],
    )
    def test_a_group_the_page_would_ignore_is_refused_by_the_feed(self, value):
        page = self.client.get(f"/news/?group={value}")
        assert page.status_code == 200
        notice = f"Research group “{value}” was ignored"
        assert any(notice in line for line in page.context["ignored"])
        assert self.client.get(f"/news/feed/?group={value}").status_code == 400

    def test_a_group_value_in_any_case_names_the_group(self):
        feed = read_feed(self.client, "group=ML-Systems")
        assert [entry.title for entry in feed.entries] == self.expected_titles("ml-systems")

    def test_the_group_page_links_its_news_feed_in_the_head_and_in_the_page(self):
        html = self.client.get("/groups/ml-systems/").content.decode()
        head = PageHead(html)
        feeds = {link["title"]: link["href"] for link in head.feeds()}
        assert feeds["News of Machine Learning Systems"] == "/news/feed/?group=ml-systems"
        assert (
            '<a href="/news/feed/?group=ml-systems">Atom feed of the news of Machine Learning '
            "Systems</a>" in html
        )

    def test_a_group_without_news_links_no_news_feed(self):
        ResearchGroup.objects.create(name="Quiet Group", slug="quiet-group")
        html = self.client.get("/groups/quiet-group/").content.decode()
        assert "/news/feed/?group=" not in html


class SeededNewsWithoutGroupsTests(SeededTestCase):
    def test_a_site_without_groups_offers_no_group_filter_on_the_news_page(self):
        html = self.client.get("/news/").content.decode()
        assert 'name="person"' in html and 'name="group"' not in html
        assert self.client.get("/news/feed/?group=anything").status_code == 400
