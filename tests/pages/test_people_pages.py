"""The directory and the profiles: as the four seeded profiles show them; and, on rows built
here, alumni, drafts, co-authors, sanitized bios and the pages' queries."""

import pytest
from django.test import TestCase

from people.avatars import initials_of
from people.models import Education, Experience, Person
from publications.models import Publication
from tests.cases import (
    SeededTestCase,
    assert_a_draft_is_hidden_from_visitors_and_previewed_by_editors,
)
from tests.factories import (
    count_queries,
    html_of,
    make_group,
    make_news,
    make_person,
    make_publication,
)


def names(response) -> list[str]:
    return [person.name for person in response.context["current"] + response.context["alumni"]]


def make_people(count: int) -> Person:
    """`count` people of one group, the first of them with `count` papers (written with each of
    the others in turn), education and experience entries and news: the profile's subject."""
    group = make_group()
    people = [make_person(role_group=group, research_interests="Systems") for _ in range(count)]
    subject = people[0]
    for number in range(count):
        make_publication(authors=[subject, people[number % count], "Outside"])
        Education.objects.create(person=subject, position=number, institution=f"U{number}")
        Experience.objects.create(person=subject, position=number, title="T", organization="O")
        make_news().people.add(subject)
    return subject


@pytest.mark.parametrize(
    ("name", "initials"), [("Hang Zhu", "HZ"), ("Plato", "P"), ("Wei-Ying Ma", "WM"), ("", "?")]
)
def test_initials_are_the_first_and_last_names_first_letters(name, initials):
    assert initials_of(name) == initials


class SeededPeoplePagesTests(SeededTestCase):
    def test_directory_groups_people_in_the_staff_order_ungrouped_last(self):
        html = html_of(self.client, "/people/")
        scientists = html.index(">Research Scientists</h2>")
        students = html.index(">PhD Students</h2>")
        members = html.index(">Members</h2>")
        assert scientists < html.index("Hang Zhu") < html.index("Haoran Zhang") < students
        assert students < html.index("Zerui Wang") < members < html.index("Hao Zhang")
        assert ">Alumni</h2>" not in html  # no alumni in the seed

    def test_directory_filters_by_role_and_searches_name_alias_and_interest(self):
        assert names(self.client.get("/people/", {"role": "phd-students"})) == ["Zerui Wang"]
        assert names(self.client.get("/people/", {"q": "gpu"})) == ["Zerui Wang"]
        assert names(self.client.get("/people/", {"q": "haoran"})) == ["Haoran Zhang"]
        assert names(
            self.client.get("/people/", {"q": "zhang", "role": "research-scientists"})
        ) == ["Haoran Zhang"]

    def test_directory_reports_an_unknown_role_and_a_search_that_finds_nobody(self):
        response = self.client.get("/people/", {"role": "wizards"})
        assert response.status_code == 200
        assert "Role “wizards” was ignored" in response.content.decode()
        assert len(names(response)) == Person.objects.published().count()
        nobody = self.client.get("/people/", {"q": "astrology"})
        assert "Nobody matches" in nobody.content.decode()

    def test_cards_without_a_photo_show_a_generated_avatar(self):
        html = self.client.get("/people/").content.decode()
        without_a_photo = Person.objects.published().filter(photo="").count()
        assert html.count('<svg class="avatar avatar--initials') == without_a_photo > 0
        assert 'font-weight="600">HZ</text>' in html
        assert 'font-weight="600">ZW</text>' in html

    def test_profile_shows_cv_sections_with_dates_at_their_precision(self):
        html = self.client.get("/people/zerui-wang/").content.decode()
        assert "Sep 2023 – Present" in html
        assert "May 2026 – Present" in html
        assert "Started Oct 2025" in html
        assert "Jan 1" not in html and "Jan. 1" not in html
        haoran = self.client.get("/people/haoran-zhang/").content.decode()
        assert "2019 – 2024" in haoran
        assert "Jul 2024 – Feb 2026" in haoran
        assert "CIS 548: Operating Systems Design and Implementation" in haoran
        assert "Spring 2021" in haoran

    def test_profile_never_prints_a_plain_email_address(self):
        html = self.client.get("/people/hang-zhu/").content.decode()
        assert "hangzhu16 [at] gmail [dot] com" in html
        assert "hangzhu16@gmail.com" not in html
        assert "mailto:" not in html

    def test_profile_shows_the_newest_publications_titled_so_and_links_to_all_of_them(self):
        response = self.client.get("/people/hang-zhu/")
        years = [publication.year for publication in response.context["publications"]]
        assert len(years) == 8 and years == sorted(years, reverse=True)
        html = response.content.decode()
        # Nobody selected them: "Selected publications" would say so.
        assert '<h2 id="publications">Newest publications</h2>' in html
        assert "Selected" not in html
        hang = Person.objects.filter(slug="hang-zhu")
        count = Publication.objects.published().authored_by(hang).count()
        assert (
            f'<a class="more-link" href="/publications/?author=hang-zhu">All {count} publications'
            in html
        )

    def test_a_profile_with_a_featured_paper_titles_its_list_featured_and_newest(self):
        oldest = (
            Publication.objects.published()
            .authored_by(Person.objects.filter(slug="hang-zhu"))
            .order_by("year")[0]
        )
        Publication.objects.filter(pk=oldest.pk).update(is_featured=True)
        response = self.client.get("/people/hang-zhu/")
        assert response.context["publications"][0].pk == oldest.pk
        html = response.content.decode()
        assert '<h2 id="publications">Featured and newest publications</h2>' in html

    def test_profile_shows_news_and_awards(self):
        haoran = self.client.get("/people/haoran-zhang/").content.decode()
        assert "Linear Attention, Visualized" in haoran
        assert "25 Jul 2026" in haoran
        hao = self.client.get("/people/hao-zhang/").content.decode()
        assert "Jay Lepreau Best Paper Award" in hao
        assert "No publications listed yet." in hao

    def test_unknown_profile_is_a_404_in_the_sites_design(self):
        response = self.client.get("/people/nobody/")
        assert response.status_code == 404
        assert "Page not found" in response.content.decode()


class PeoplePagesRowsTests(TestCase):
    """On rows each test builds."""

    def test_alumni_are_listed_apart_after_current_members(self):
        alumni = make_group(name="Alumni", is_alumni=True)
        faculty = make_group(name="Faculty")
        make_person(name="Former Student", role_group=alumni)
        make_person(name="Professor", role_group=faculty)
        response = self.client.get("/people/")
        assert [p.name for p in response.context["current"]] == ["Professor"]
        assert [p.name for p in response.context["alumni"]] == ["Former Student"]

    def test_drafts_are_hidden_from_the_directory_and_their_profile(self):
        make_person(name="Draft Person", slug="draft", is_published=False)
        assert "Draft Person" not in self.client.get("/people/").content.decode()
        assert self.client.get("/people/draft/").status_code == 404

    def test_profile_lists_lab_coauthors_with_shared_paper_counts(self):
        ada = make_person(name="Ada Lovelace", slug="ada")
        grace = make_person(name="Grace Hopper", slug="grace")
        make_publication(authors=[ada, grace])
        make_publication(authors=[grace, "Outsider", ada])
        make_publication(authors=[ada])
        response = self.client.get("/people/ada/")
        assert [(p.name, p.shared) for p in response.context["coauthors"]] == [("Grace Hopper", 2)]

    def test_bio_markdown_is_rendered_and_sanitized(self):
        make_person(
            slug="x",
            bio='**Bold** <script>alert(1)</script> [bad](javascript:alert(1)) <img src=x onerror="alert(1)">',
        )
        html = self.client.get("/people/x/").content.decode()
        assert "<strong>Bold</strong>" in html
        assert "<script>alert" not in html
        # markdown-it leaves a javascript: link as the text the member typed, not a link.
        assert 'href="javascript:' not in html
        assert "onerror" not in html

    def test_a_draft_is_a_404_for_visitors_and_a_marked_preview_for_staff(self):
        assert_a_draft_is_hidden_from_visitors_and_previewed_by_editors(
            self, make_person(slug="draft", is_published=False)
        )

    def test_profile_shows_a_selection_and_links_to_all(self):
        subject = make_people(60)
        response = self.client.get(subject.get_absolute_url())
        assert len(response.context["publications"]) == 8
        assert response.context["publication_count"] == 60
        assert (
            f'?author={subject.slug}">All 60 publications of {subject.name}</a>'
            in response.content.decode()
        )


class PeoplePagesQueryCountTests(TestCase):
    """Few rows here; the subclass below runs the same tests on many."""

    rows = 5

    @classmethod
    def setUpTestData(cls):
        cls.subject = make_people(cls.rows)

    def test_directory_runs_a_fixed_number_of_queries(self):
        """lab, role, research group and area choices, people with their groups, their links:
        no query per card. (With research groups or areas, one count each:
        tests/pages/test_department_scale.py.) A search reads the people's texts once, to fold them."""
        assert count_queries(self.client, "/people/") == 6
        assert count_queries(self.client, "/people/?q=person&role=group-1") == 7

    def test_profile_runs_a_fixed_number_of_queries(self):
        """the person's id, lab, person with group, six CV prefetches, five department prefetches (advisors,
        students, collaborators, groups, areas), the selection (the year of the member's 8th
        newest paper and the ids from there on or featured, both from the co-author pair rows;
        its ids, then its entries' rows with three prefetches), whether any is featured (the
        list's heading), the count per
        year (the chart and the total), co-authors in and outside the lab, news, the co-author
        network (its members, then their pairs), their talks and events (upcoming, then the
        latest past), their datasets and software (one query when they have none, kept until
        the next change), their projects (likewise): no query per publication, author or entry.
        (The citation keys are stored on the rows.)"""
        assert count_queries(self.client, self.subject.get_absolute_url()) == 32


class PeoplePagesQueryCountAtManyRowsTests(PeoplePagesQueryCountTests):
    rows = 200
