"""How the publication, people and news lists read repeated, odd and mis-cased filter values,
and that the list, its feed and its export say the same about a value they ignore: on the seeded
rows; and, on rows built here, stored years out of range and papers all members ticked wrote."""

import logging

import pytest
from django.test import TestCase

from news.models import NewsItem
from people.models import Person
from publications.models import Publication
from tests.cases import SeededTestCase, parametrize
from tests.factories import make_person, make_publication

URL = "/publications/"


def titles(response) -> set[str]:
    return {publication.title for publication in response.context["page"].object_list}


def chips(response) -> list[str]:
    return [chip.label for chip in response.context["active_filters"]]


def by(slug: str) -> set[str]:
    return set(
        Publication.objects.published()
        .filter(authorships__researcher__slug=slug)
        .values_list("title", flat=True)
    )


class SeededFilterValuesTests(SeededTestCase):
    @pytest.fixture(autouse=True)
    def _caplog(self, caplog):
        """pytest's log capture, for the test that checks nothing logged an error."""
        self.caplog = caplog

    def test_two_members_give_the_papers_of_either_and_the_page_says_any(self):
        response = self.client.get(f"{URL}?author=hang-zhu&author=zerui-wang")
        assert titles(response) == by("hang-zhu") | by("zerui-wang")
        assert chips(response) == ["Lab member: Hang Zhu", "Lab member: Zerui Wang"]
        assert "Papers by any of the members ticked" in response.content.decode()

    def test_two_members_with_authors_all_give_only_their_joint_papers(self):
        response = self.client.get(f"{URL}?author=hang-zhu&author=haoran-zhang&authors=all")
        assert by("hang-zhu") & by("haoran-zhang") == set()  # the seed has no joint paper
        assert titles(response) == set()
        assert "Papers by all of the members ticked" in response.content.decode()

    def test_repeated_words_are_searched_together_under_one_chip(self):
        response = self.client.get(f"{URL}?q=serverless&q=kallas")
        assert titles(response) == {"Executing Microservice Applications on Serverless, Correctly"}
        assert chips(response) == ["Words: serverless kallas"]

    @parametrize(
        ("query", "notice"),
        [
            ("year_min=2020&year_min=2024", "From year “2020”, “2024” was ignored"),
            ("year_max=2020&year_max=2024", "To year “2020”, “2024” was ignored"),
            ("award=1&award=yes", "Only papers with an award “1”, “yes” was ignored"),
            ("authors=any&authors=all", "Papers by “any”, “all” was ignored"),
        ],
        ids=["year_min", "year_max", "award", "authors"],
    )
    def test_a_one_value_filter_given_twice_is_refused_with_a_notice_and_no_chip(
        self, query, notice
    ):
        response = self.client.get(f"{URL}?{query}")
        assert notice in response.content.decode()
        assert response.context["page"].paginator.count == Publication.objects.published().count()
        assert chips(response) == []

    def test_the_same_value_twice_is_simply_that_value(self):
        response = self.client.get(f"{URL}?year_min=2025&year_min=2025")
        assert response.context["ignored"] == []
        assert chips(response) == ["Years: from 2025"]

    @parametrize(
        ("query", "expected"),
        [
            ("type=POSTER", {"SchedMate: Large Language Models are DL Scheduling Enhancers"}),
            (
                "type=Poster&type=poster",
                {"SchedMate: Large Language Models are DL Scheduling Enhancers"},
            ),
            ("author=Haoran-Zhang", None),
            ("venue=nsdi&author=ZERUI-WANG", None),
        ],
        ids=["type", "type_twice", "author", "venue_and_author"],
    )
    def test_choices_are_matched_whatever_their_case(self, query, expected):
        response = self.client.get(f"{URL}?{query}")
        assert response.context["ignored"] == []
        assert response.context["page"].paginator.count > 0
        if expected is not None:
            assert titles(response) == expected
        assert all(":" in chip for chip in chips(response))

    def test_a_mis_cased_type_has_one_chip_that_removes_it(self):
        response = self.client.get(f"{URL}?type=POSTER")
        [chip] = response.context["active_filters"]
        assert chip.label == "Type: Poster"
        assert chip.remove_query == ""

    def test_an_inverted_year_range_is_read_the_right_way_round_and_said_so(self):
        inverted = self.client.get(URL, {"year_min": "2024", "year_max": "2020"})
        ordered = self.client.get(URL, {"year_min": "2020", "year_max": "2024"})
        assert titles(inverted) == titles(ordered)
        assert inverted.context["page"].paginator.count > 0
        assert (
            "The years “from 2024 to 2020” were read as from 2020 to 2024."
            in inverted.content.decode()
        )
        assert chips(inverted) == ["Years: 2020–2024"]

    def test_people_and_news_refuse_a_one_value_filter_given_twice(self):
        people = self.client.get("/people/?role=faculty&role=phd-students")
        assert "Role “faculty”, “phd-students” was ignored" in people.content.decode()
        assert len(people.context["current"]) == Person.objects.published().current().count()
        news = self.client.get("/news/?person=zerui-wang&person=haoran-zhang")
        assert "Person “zerui-wang”, “haoran-zhang” was ignored" in news.content.decode()
        assert len(news.context["page"].object_list) == NewsItem.objects.published().count()

    def test_people_and_news_choices_ignore_case(self):
        people = self.client.get("/people/", {"role": "PhD-Students"})
        assert [person.name for person in people.context["current"]] == ["Zerui Wang"]
        news = self.client.get("/news/", {"person": "Haoran-Zhang"})
        assert [item.title for item in news.context["page"].object_list] == [
            "Linear Attention, Visualized"
        ]

    @parametrize(
        "query",
        [
            {"author": "nobody"},
            {"year_min": ["2020", "2024"]},
            {"type": "novel"},
            {"year": "soon"},
        ],
        ids=["unknown_member", "year_min_twice", "unknown_type", "year_not_a_number"],
    )
    def test_the_list_its_feed_and_its_export_say_the_same_about_an_ignored_value(self, query):
        page = self.client.get(URL, query)
        [notice] = page.context["ignored"]
        assert notice in page.content.decode().replace("&ldquo;", "“")
        with self.caplog.at_level(logging.WARNING):
            for url in [f"{URL}feed/", f"{URL}export.bib", f"{URL}export.csv"]:
                response = self.client.get(url, query)
                assert response.status_code == 400, url
                assert response.content.decode().strip() == notice, url
        assert [record for record in self.caplog.records if record.exc_info] == []


class FilterValuesRowsTests(TestCase):
    """On rows each test builds."""

    def test_years_outside_the_sites_range_are_no_option_or_bar(self):
        make_publication(title="Kept", year=2024)
        for year in [0, 999]:
            stored = make_publication(title=f"Imported {year}")
            Publication.objects.filter(pk=stored.pk).update(year=year)  # as an import once did
        response = self.client.get(URL)
        offered = [option.year for option in response.context["year_options"]]
        assert offered == [2024]
        assert [bar.year for bar in response.context["chart"].bars] == [2024]
        for year in offered:
            chosen = self.client.get(URL, {"year_min": year, "year_max": year})
            assert chosen.context["ignored"] == []
            assert chosen.context["page"].paginator.count == 1

    def test_authors_all_gives_the_papers_every_member_ticked_wrote_together(self):
        ada = make_person(name="Ada Lovelace", slug="ada")
        grace = make_person(name="Grace Hopper", slug="grace")
        make_publication(title="Ada alone", authors=[ada])
        make_publication(title="Grace alone", authors=[grace, "Outsider"])
        make_publication(title="Together", authors=["Outsider", grace, ada])
        both = f"{URL}?author=ada&author=grace"
        either = {p.title for p in self.client.get(both).context["page"].object_list}
        assert either == {"Ada alone", "Grace alone", "Together"}
        together = {
            p.title for p in self.client.get(f"{both}&authors=all").context["page"].object_list
        }
        assert together == {"Together"}
