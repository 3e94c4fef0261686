"""The home page composes the apps: the latest news, featured and recent publications, people."""

from django.test import TestCase

from tests.cases import SeededTestCase
from tests.factories import count_queries, make_news, make_person, make_publication


class SeededHomePageTests(SeededTestCase):
    def test_home_shows_latest_news_recent_publications_and_people(self):
        response = self.client.get("/")
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


class HomePageQueryCountTests(TestCase):
    """Few rows here; the subclass below runs the same test on many."""

    rows = 5

    @classmethod
    def setUpTestData(cls):
        member = make_person()
        for number in range(cls.rows):
            make_news().people.add(member)
            make_publication(authors=[member, "Other"], is_featured=number % 2 == 0)

    def test_home_runs_a_fixed_number_of_queries(self):
        """lab, news + people + papers, featured and recent publications (the ids of each, then
        the entries' rows of both with their prefetches), people with their links. (The
        citation keys are stored on the rows.)"""
        assert count_queries(self.client, "/") == 16


class HomePageQueryCountAtManyRowsTests(HomePageQueryCountTests):
    rows = 200
