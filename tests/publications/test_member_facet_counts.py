"""The member facet's counts on the rows that could make them wrong: drafts, a member linked
twice on one paper, a member without a public profile, a member whose only paper is a draft,
authors who are no member; counted on the whole list (where the drafts' authors are taken off
every member's papers) and under filters and on a group's page (where each paper is looked up
among the filtered ones), each against the same count done here in Python.

The author filter takes the members' ids from the choices: the same papers whichever way the
members are ticked."""

from django.test import TestCase

from people.models import Person
from publications.filters import PublicationFilter, member_counts
from publications.models import Authorship, Publication
from tests.department import make_membership, make_research_group
from tests.factories import make_person, make_publication

URL = "/publications/"


def member_options(response) -> dict[str, int]:
    return {option.value: option.count for option in response.context["facets"]["author"].options}


def expected_counts(papers) -> dict[str, int]:
    """Papers per published member among `papers`, each paper once per member."""
    counts: dict[str, int] = {}
    for member in Person.objects.published():
        count = len({row.publication_id for row in member.authorships.all()} & set(papers))
        if count:
            counts[member.slug] = count
    return counts


class MemberFacetCountsTests(TestCase):
    @classmethod
    def setUpTestData(cls):
        cls.ada = make_person(name="Ada Byron", slug="ada")
        cls.ben = make_person(name="Ben Okafor", slug="ben")
        cls.cleo = make_person(name="Cleo Park", slug="cleo")
        cls.hidden = make_person(name="Hidden Member", slug="hidden", is_published=False)
        cls.drafts_only = make_person(name="Dora Draft", slug="dora")
        make_publication(title="Ada and Ben 2023", year=2023, authors=[cls.ada, cls.ben, "X"])
        make_publication(title="Ada alone 2024", year=2024, authors=[cls.ada, "Y"])
        twice = make_publication(title="Ben twice 2024", year=2024, authors=[cls.ben, "Z"])
        # The same member a second time on one paper (an alias linked to them): one paper.
        Authorship.objects.create(publication=twice, position=3, name="B. Okafor", person=cls.ben)
        make_publication(title="Cleo and hidden", year=2022, authors=[cls.cleo, cls.hidden])
        make_publication(
            title="A draft", year=2024, is_published=False, authors=[cls.ada, cls.drafts_only]
        )
        make_publication(title="Nobody's", year=2024, authors=["Outside Author"])

    def published_ids(self, **filters) -> list[int]:
        return list(Publication.objects.published().filter(**filters).values_list("pk", flat=True))

    def test_the_whole_list_counts_each_published_paper_once_per_member(self):
        counts = member_options(self.client.get(URL))
        assert counts == expected_counts(self.published_ids())
        assert counts == {"ada": 2, "ben": 2, "cleo": 1}

    def test_a_members_papers_leave_the_member_facet_counting_the_whole_list(self):
        response = self.client.get(f"{URL}?author=ben")
        assert member_options(response) == {"ada": 2, "ben": 2, "cleo": 1}
        assert {paper.title for paper in response.context["page"].object_list} == {
            "Ada and Ben 2023",
            "Ben twice 2024",
        }

    def test_a_filter_counts_the_members_papers_among_those_it_keeps(self):
        counts = member_options(self.client.get(f"{URL}?year=2024"))
        assert counts == expected_counts(self.published_ids(year=2024))
        assert counts == {"ada": 1, "ben": 1}

    def test_a_word_counts_the_members_papers_it_finds(self):
        counts = member_options(self.client.get(f"{URL}?q=ada"))
        assert counts == {"ada": 2, "ben": 1}

    def test_the_api_gives_the_same_member_counts(self):
        for query in ["", "?year=2024", "?author=ada"]:
            page = member_options(self.client.get(f"{URL}{query}"))
            data = self.client.get(f"/api/publications/{query}").json()
            assert {row["value"]: row["count"] for row in data["facets"]["author"]} == page

    def test_a_member_who_leaves_the_site_leaves_the_facet(self):
        Person.objects.filter(pk=self.ada.pk).update(is_published=False)
        assert member_options(self.client.get(URL)) == {"ben": 2, "cleo": 1}

    def test_a_draft_published_counts_for_its_members(self):
        Publication.objects.filter(title="A draft").update(is_published=True)
        counts = member_options(self.client.get(URL))
        assert counts == {"ada": 3, "ben": 2, "cleo": 1, "dora": 1}

    def test_ticking_members_gives_their_papers_together_or_apart(self):
        any_of = self.client.get(f"{URL}?author=ada&author=cleo")
        assert any_of.context["page"].paginator.count == 3
        both = self.client.get(f"{URL}?author=ada&author=ben&authors=all")
        assert [paper.title for paper in both.context["page"].object_list] == ["Ada and Ben 2023"]


class GroupPageMemberFacetTests(TestCase):
    """A group's page lists only its members' papers: the facet counts among those."""

    @classmethod
    def setUpTestData(cls):
        group = make_research_group(name="Systems", slug="systems")
        cls.ada = make_person(name="Ada Byron", slug="ada")
        cls.ben = make_person(name="Ben Okafor", slug="ben")
        make_membership(cls.ada, group)
        make_publication(title="Ada and Ben", year=2023, authors=[cls.ada, cls.ben])
        make_publication(title="Ben alone", year=2023, authors=[cls.ben])
        make_publication(title="Ada's draft", year=2023, is_published=False, authors=[cls.ada])

    def test_the_group_page_counts_only_the_groups_papers(self):
        counts = member_options(self.client.get("/groups/systems/"))
        assert counts == {"ada": 1, "ben": 1}


class NoPapersTests(TestCase):
    def test_a_list_that_can_hold_no_paper_counts_no_member(self):
        make_publication(title="Ada's", authors=[make_person(name="Ada Byron", slug="ada")])
        filterset = PublicationFilter({}, queryset=Publication.objects.none())
        filterset.form.is_valid()
        assert member_counts(filterset) == {}
