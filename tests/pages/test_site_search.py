"""/search/: one box for people, publications and news, by word starts, grouped by kind; on the
seeded rows, and on rows built here for its query count."""

from django.db import connection
from django.test import TestCase
from django.test.utils import CaptureQueriesContext

from outputs.models import Output
from people.models import ExternalPerson, Person
from publications.models import Publication
from tests.cases import SeededTestCase, parametrize
from tests.factories import count_queries, make_news, make_person, make_publication
from tests.outputs.conftest import make_output


def found(response) -> dict[str, list[str]]:
    return {group.kind: [str(row) for row in group.first] for group in response.context["groups"]}


class SeededSiteSearchTests(SeededTestCase):
    def test_a_first_name_finds_that_person_and_not_a_name_that_contains_it(self):
        response = self.client.get("/search/", {"q": "Hang"})
        assert found(response)["people"] == ["Hang Zhu"]
        publications = response.context["groups"][1].queryset
        hang_zhus = Publication.objects.published().authored_by(
            Person.objects.filter(slug="hang-zhu")
        )
        # Hang Zhu's papers, and papers by another Hang.
        assert hang_zhus.exists() and set(hang_zhus) <= set(publications)
        for publication in publications:
            words = publication.title.split() + [
                word for author in publication.authorships.all() for word in author.name.split()
            ]
            assert any(word.lower().startswith("hang") for word in words), publication.title

    def test_results_are_grouped_by_kind_with_a_link_to_each_list(self):
        response = self.client.get("/search/", {"q": "jet-long"})
        html = response.content.decode()
        assert [group.kind for group in response.context["groups"]] == [
            "people",
            "publications",
            "news",
        ]
        assert found(response)["news"] == [
            "Our Jet-Long preprint and code are available.",
            "Jet-Long has been accepted to NeurIPS 2026.",
        ]
        assert (
            "Jet-Long: Efficient Long-Context Extension with Dynamic Bifocal RoPE"
            in found(response)["publications"]
        )
        assert 'href="/news/?q=jet-long"' not in html  # all of them are shown
        assert "results-people" not in html  # no one found: no empty "People" section

    def test_the_lists_find_what_the_search_counts(self):
        groups = {
            g.kind: g.count for g in self.client.get("/search/", {"q": "zhang"}).context["groups"]
        }
        assert groups["people"] == len(
            self.client.get("/people/", {"q": "zhang"}).context["current"]
        )
        listed = self.client.get("/publications/", {"q": "zhang"}).context["page"].paginator.count
        assert groups["publications"] == listed

    @parametrize("query", ["", "   "], ids=["empty", "blank"])
    def test_an_empty_search_asks_for_words(self, query):
        response = self.client.get("/search/", {"q": query})
        assert response.status_code == 200
        assert response.context["groups"] == []

    def test_a_search_too_long_is_refused_plainly(self):
        response = self.client.get("/search/", {"q": " ".join(["word"] * 20)})
        assert response.status_code == 200
        assert "Search with at most 12 words." in response.content.decode()


class SiteSearchRowsTests(TestCase):
    """Issue 26: one line per result, the words found marked, five of each kind at most."""

    @classmethod
    def setUpTestData(cls):
        member = make_person(name="Núñez Widget", is_published=True)
        for number in range(7):
            make_publication(title=f"Widgets <b>bold</b> {number}", authors=[member, "Outside"])

    def test_each_result_is_one_row_of_kind_title_year_and_members_with_the_words_marked(self):
        html = self.client.get("/search/", {"q": "widget nunez"}).content.decode()
        assert html.count('class="search-row"') == 1 + 5  # one person, five of seven papers
        assert '<a href="/people/' in html and "<mark>Núñez</mark> <mark>Widget</mark>" in html
        # A title's own markup is text, escaped; only the word start found is marked.
        assert "<mark>Widget</mark>s &lt;b&gt;bold&lt;/b&gt; 0" in html
        assert '<span class="search-row__year">2024</span>' in html
        assert '<span class="search-row__people"><bdi>Núñez Widget</bdi></span>' in html
        assert 'href="/publications/?q=widget%20nunez">All 7 publications' in html

    def test_a_kind_with_nothing_found_has_no_section(self):
        html = self.client.get("/search/", {"q": "widgets"}).content.decode()
        assert 'id="results-publications"' in html
        assert 'id="results-people"' not in html and 'id="results-news"' not in html

    def test_the_results_page_has_one_search_box_holding_the_words(self):
        html = self.client.get("/search/", {"q": "widgets"}).content.decode()
        assert html.count('type="search"') == 1
        assert 'value="widgets"' in html


class SiteSearchOutputsTests(TestCase):
    """Datasets and software are found by words of their title, description or creators, in a
    section of their own after the publications, one row each like the others."""

    @classmethod
    def setUpTestData(cls):
        cls.member = make_person(name="Núñez Widget", slug="nunez")
        outsider = ExternalPerson.objects.create(name="Outside Widget", slug="outside-widget")
        make_publication(title="Widget paper", authors=[cls.member])
        make_output(
            kind="software",
            title="Widget simulator",
            released="2025-03",
            creators=[outsider, cls.member],
        )
        make_output(
            kind="dataset", title="Traces", description="Widget traces.", creators=[outsider]
        )
        make_output(title="Widget draft", is_published=False, creators=[cls.member])

    def test_outputs_are_found_by_their_words_after_the_publications(self):
        response = self.client.get("/search/", {"q": "widget"})
        assert [group.kind for group in response.context["found"]] == [
            "people",
            "publications",
            "outputs",
        ]
        assert found(response)["outputs"] == ["Widget simulator", "Traces"]
        html = response.content.decode()
        assert 'id="results-outputs"' in html and "Datasets and software" in html

    def test_an_outputs_row_names_its_kind_year_and_member_creators_with_the_words_marked(self):
        html = self.client.get("/search/", {"q": "simulator"}).content.decode()
        assert html.count('class="search-row"') == 1
        assert '<a href="/outputs/' in html and "Widget <mark>simulator</mark>" in html
        assert '<span class="search-row__year">2025</span>' in html
        assert '<span class="search-row__people"><bdi>Núñez Widget</bdi></span>' in html
        assert "Outside Widget" not in html  # only the lab's members, as for papers

    def test_a_site_without_datasets_or_software_runs_no_query_for_them(self):
        assert "outputs" in [g.kind for g in self.client.get("/search/?q=widget").context["found"]]
        Output.objects.all().delete()
        with CaptureQueriesContext(connection) as queries:
            response = self.client.get("/search/", {"q": "widget"})
        assert "outputs" not in [group.kind for group in response.context["groups"]]
        assert not [q for q in queries if "outputs_outputcreator" in q["sql"]]


class SiteSearchQueryCountTests(TestCase):
    """Few rows here; the subclass below runs the same test on many."""

    rows = 5

    @classmethod
    def setUpTestData(cls):
        for number in range(cls.rows):
            member = make_person(name=f"Widget Person {number}")
            make_publication(title=f"Widget paper {number}", authors=[member, "Outside"])
            make_news(title=f"Widget news {number}").people.add(member)
            make_output(title=f"Widget tool {number}", creators=[member])

    def test_search_runs_a_fixed_number_of_queries(self):
        """lab; people: the texts folded, count, rows, links; publications: count, rows and their
        three prefetches; datasets and software: the texts and creators folded, count, rows,
        creators; news: the texts folded, count, rows, people."""
        assert count_queries(self.client, "/search/?q=widget") == 19


class SiteSearchQueryCountAtManyRowsTests(SiteSearchQueryCountTests):
    rows = 200
