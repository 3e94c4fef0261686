"""Atom feeds of the news and of the publication list, read as XML: of the seeded rows; and, of
rows built here, that drafts stay out and the queries do not grow."""

import xml.etree.ElementTree as ET

from django.test import TestCase

from news.models import NewsItem
from publications.models import Publication
from tests.cases import SeededTestCase
from tests.factories import count_queries, make_news, make_person, make_publication

ATOM = "{http://www.w3.org/2005/Atom}"


def feed(client, url, query=None) -> ET.Element:
    response = client.get(url, query or {})
    assert response.status_code == 200
    assert response["Content-Type"] == "application/atom+xml; charset=utf-8"
    root = ET.fromstring(response.content)
    assert root.tag == f"{ATOM}feed"
    return root


def entries(root: ET.Element) -> list[ET.Element]:
    return root.findall(f"{ATOM}entry")


def titles(root: ET.Element) -> list[str]:
    return [entry.findtext(f"{ATOM}title") for entry in entries(root)]


class SeededFeedTests(SeededTestCase):
    def test_the_news_feed_lists_the_news_newest_first_with_links_and_dates(self):
        root = feed(self.client, "/news/feed/")
        news = list(NewsItem.objects.published()[:20])
        assert titles(root) == [item.title for item in news]
        first = entries(root)[0]
        link = first.find(f"{ATOM}link").get("href")
        assert link == f"http://testserver{news[0].get_absolute_url()}"
        # Published on its day only when its date is known to the day: no invented first day.
        for item, entry in zip(news, entries(root), strict=True):
            published = entry.findtext(f"{ATOM}published")
            if item.date.day is None:
                assert published is None, item.title
            else:
                assert published.startswith(item.date.first_day().isoformat()), item.title
        assert root.find(f"{ATOM}link[@rel='alternate']").get("href") == "http://testserver/news/"

    def test_the_publication_feed_lists_the_publications_in_list_order(self):
        root = feed(self.client, "/publications/feed/")
        assert titles(root) == [publication.title for publication in Publication.objects.all()]
        assert root.findtext(f"{ATOM}title").endswith(": publications")

    def test_a_members_feed_has_exactly_their_papers(self):
        root = feed(self.client, "/publications/feed/", {"author": "zerui-wang"})
        expected = Publication.objects.filter(authorships__researcher__slug="zerui-wang")
        assert sorted(titles(root)) == sorted(publication.title for publication in expected)
        assert expected.exists()
        assert root.findtext(f"{ATOM}title").endswith("publications (Lab member: Zerui Wang)")
        self_link = root.find(f"{ATOM}link[@rel='self']").get("href")
        assert self_link == "http://testserver/publications/feed/?author=zerui-wang"

    def test_a_venues_feed_has_exactly_its_papers_with_authors_and_categories(self):
        root = feed(self.client, "/publications/feed/", {"venue": "VLDB"})
        assert sorted(titles(root)) == sorted(
            Publication.objects.filter(venue__short_name="VLDB").values_list("title", flat=True)
        )
        causalmesh = next(
            e for e in entries(root) if e.findtext(f"{ATOM}title").startswith("Causal")
        )
        assert causalmesh.findtext(f"{ATOM}author/{ATOM}name") == (
            "Haoran Zhang, Shuai Mu, Sebastian Angel, Vincent Liu"
        )
        # A year is no day: no <published>, and <updated> is when its row last changed.
        assert causalmesh.find(f"{ATOM}published") is None
        assert not causalmesh.findtext(f"{ATOM}updated").startswith("2025-01-01")
        terms = [category.get("term") for category in causalmesh.findall(f"{ATOM}category")]
        assert terms == ["VLDB", "Conference paper"]

    def test_an_undated_publication_gets_no_invented_date_in_the_feed(self):
        root = feed(self.client, "/publications/feed/", {"type": "preprint"})
        oneflow = next(e for e in entries(root) if e.findtext(f"{ATOM}title").startswith("OneFlow"))
        assert oneflow.find(f"{ATOM}published") is None
        # RFC 4287 requires <updated>: when the row last changed, not a publication date.
        assert oneflow.find(f"{ATOM}updated") is not None

    def test_a_feed_with_a_filter_value_the_list_would_ignore_is_a_bad_request(self):
        assert self.client.get("/publications/feed/", {"year": "soon"}).status_code == 400


class FeedDraftTests(TestCase):
    def test_drafts_are_in_no_feed(self):
        make_news(title="Public news")
        make_news(title="Draft news", is_published=False)
        make_publication(title="Public paper")
        make_publication(title="Draft paper", is_published=False)
        news = self.client.get("/news/feed/").content.decode()
        papers = self.client.get("/publications/feed/").content.decode()
        assert "Public news" in news and "Draft news" not in news
        assert "Public paper" in papers and "Draft paper" not in papers


class PublicationFeedQueryCountTests(TestCase):
    """Few rows here; the subclass below runs the same test on many."""

    rows = 5

    @classmethod
    def setUpTestData(cls):
        members = [make_person(), make_person()]
        for number in range(cls.rows):
            make_publication(title=f"Paper {number}", authors=[members[number % 2], "Outsider"])

    def test_the_publication_feed_runs_a_fixed_number_of_queries(self):
        """lab, venue choices, member choices, rows, authorships+people, awards, links."""
        assert count_queries(self.client, "/publications/feed/") == 7


class PublicationFeedQueryCountAtManyRowsTests(PublicationFeedQueryCountTests):
    rows = 60
