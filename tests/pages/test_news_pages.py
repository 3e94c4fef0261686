"""/news/ and a news item's page: the seeded news at each date's precision, its filters and
messages; and, on rows built here, drafts, pages and queries."""

from django.test import TestCase

from base.partial_dates import PartialDate
from news.models import NewsItem
from tests.cases import (
    SeededTestCase,
    assert_a_draft_is_hidden_from_visitors_and_previewed_by_editors,
)
from tests.factories import count_queries, html_of, make_news, make_person, make_publication


def titles(response) -> list[str]:
    return [item.title for item in response.context["page"].object_list]


class SeededNewsPagesTests(SeededTestCase):
    def test_news_lists_newest_first_at_each_dates_precision(self):
        response = self.client.get("/news/")
        assert titles(response)[0] == "Linear Attention, Visualized"
        html = response.content.decode()
        assert '<time datetime="2026-07-25">25 Jul 2026</time>' in html
        assert '<time datetime="2026-05">May 2026</time>' in html
        assert '<time datetime="2026">2026</time>' in html

    def test_news_filters_by_person_and_year(self):
        assert titles(self.client.get("/news/", {"person": "haoran-zhang"})) == [
            "Linear Attention, Visualized"
        ]
        zerui_in_2026 = titles(self.client.get("/news/", {"person": "zerui-wang", "year": "2026"}))
        expected = NewsItem.objects.published().filter(people__slug="zerui-wang").in_year(2026)
        assert zerui_in_2026 == [item.title for item in expected]
        assert zerui_in_2026
        assert titles(self.client.get("/news/", {"year": "2025"})) == []

    def test_news_ignores_a_bad_year_plainly(self):
        response = self.client.get("/news/", {"year": "abc"})
        assert response.status_code == 200
        assert "Year “abc” was ignored" in response.content.decode()
        assert len(titles(response)) == NewsItem.objects.published().count()

    def test_news_item_page_links_its_people_and_publications(self):
        html = html_of(self.client, "/news/jet-long-accepted-to-neurips-2026/")
        assert '<a href="/people/zerui-wang/"><bdi>Zerui Wang</bdi></a>' in html
        assert "Jet-Long: Efficient Long-Context Extension with Dynamic Bifocal RoPE" in html

    def test_the_chosen_year_stays_selected(self):
        html = self.client.get("/news/", {"year": "2026"}).content.decode()
        assert '<option value="2026" selected>2026</option>' in html


class NewsPagesRowsTests(TestCase):
    """On rows each test builds: drafts and pages."""

    def test_drafts_are_hidden_from_the_list_and_their_page(self):
        make_news(title="Shown")
        make_news(title="Draft", slug="draft", is_published=False)
        assert titles(self.client.get("/news/")) == ["Shown"]
        assert self.client.get("/news/draft/").status_code == 404

    def test_a_draft_is_a_404_for_visitors_and_a_marked_preview_for_staff(self):
        assert_a_draft_is_hidden_from_visitors_and_previewed_by_editors(
            self, make_news(slug="draft", is_published=False)
        )

    def test_news_is_paginated_and_a_missing_page_is_a_404(self):
        for day in range(1, 26):
            make_news(date=PartialDate(2026, 1, day))
        assert len(self.client.get("/news/").context["page"].object_list) == 20
        assert len(self.client.get("/news/?page=2").context["page"].object_list) == 5
        assert self.client.get("/news/?page=3").status_code == 404


class NewsQueryCountTests(TestCase):
    """Few rows here; the subclass below runs the same tests on many."""

    rows = 5

    @classmethod
    def setUpTestData(cls):
        people = [make_person() for _ in range(3)]
        for number in range(cls.rows):
            make_news(date=PartialDate(2000 + number % 25)).people.add(*people)
        cls.item = make_news(date=PartialDate(2026, 7))
        cls.item.people.add(*[make_person() for _ in range(cls.rows)])
        cls.item.publications.add(*[make_publication(authors=["A", "B"]) for _ in range(cls.rows)])

    def test_news_list_runs_a_fixed_number_of_queries(self):
        """lab, year choices, person choices, count, page, people, papers, groups: no query per
        item."""
        assert count_queries(self.client, "/news/") == 8

    def test_news_page_runs_a_fixed_number_of_queries(self):
        """The item with its people and groups, its publications (their ids, then their entries'
        rows with their prefetches), the lab. (The citation keys are stored on the rows.)"""
        assert count_queries(self.client, self.item.get_absolute_url()) == 9


class NewsQueryCountAtManyRowsTests(NewsQueryCountTests):
    rows = 200


class NewsEntryLookTests(TestCase):
    """Issue 26: an item with a body shows its first lines; an item names its groups."""

    def test_an_item_with_a_body_shows_its_first_lines_as_plain_text(self):
        make_news(title="Long story", body="We **won** the prize.\n\n> A quote from the jury.")
        html = self.client.get("/news/").content.decode()
        assert '<p class="news-entry__summary">We won the prize. A quote from the jury.</p>' in html

    def test_an_item_names_its_research_groups_on_the_news_page_and_its_own(self):
        from people.models import ResearchGroup

        group = ResearchGroup.objects.create(name="Systems Group", slug="systems")
        item = make_news(title="Group news", body="Text.")
        item.groups.add(group)
        link = '<a class="news-entry__group" href="/groups/systems/">Systems Group</a>'
        assert link in self.client.get("/news/").content.decode()
        assert (
            '<a href="/groups/systems/">Systems Group</a>'
            in self.client.get(item.get_absolute_url()).content.decode()
        )
