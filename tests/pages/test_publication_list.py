"""/publications/: the list of the seeded papers, its filters, facets and messages; and, on rows
built here, its pages, its drafts and its queries."""

from collections import Counter

from django.test import TestCase

from people.models import Person
from publications.models import Publication, Venue
from tests.cases import SeededTestCase, parametrize
from tests.factories import count_queries, make_publication, make_publication_rows, make_venue

URL = "/publications/"


def titles(response) -> list[str]:
    return [publication.title for publication in response.context["page"].object_list]


def slugs(response) -> set[str]:
    return {publication.slug for publication in response.context["page"].object_list}


def facet(response, name) -> dict[str, int]:
    if name == "year":
        return {str(option.year): option.count for option in response.context["year_options"]}
    return {option.value: option.count for option in response.context["facets"][name].options}


def published():
    return Publication.objects.published()


def authored_by(slug: str):
    return published().authored_by(Person.objects.filter(slug=slug))


class SeededPublicationListTests(SeededTestCase):
    def test_lists_newest_year_first_with_a_count(self):
        response = self.client.get(URL)
        assert response.status_code == 200
        years = [publication.year for publication in response.context["page"].object_list]
        dated = [year for year in years if year is not None]
        assert dated == sorted(dated, reverse=True)
        assert years[-1] is None  # OneFlow, the undated preprint, comes last
        count = published().count()
        assert response.context["page"].paginator.count == count
        assert f"<strong>{count}</strong> publications" in response.content.decode()

    def test_venue_filter_returns_exactly_that_venues_papers_ignoring_case(self):
        response = self.client.get(URL, {"venue": "nsdi"})
        assert slugs(response) == set(
            published().filter(venue__short_name="NSDI").values_list("slug", flat=True)
        )
        assert "minder" in slugs(response)  # not two empty sets

    def test_repeated_venues_are_combined_with_or(self):
        response = self.client.get(f"{URL}?venue=NSDI&venue=OSDI")
        nsdi = published().filter(venue__short_name="NSDI").count()
        osdi = published().filter(venue__short_name="OSDI").count()
        assert nsdi and osdi
        assert response.context["page"].paginator.count == nsdi + osdi

    def test_year_filter_and_range_narrow_exactly(self):
        assert slugs(self.client.get(URL, {"year": "2024"})) == set(
            published().filter(year=2024).values_list("slug", flat=True)
        )
        in_range = self.client.get(URL, {"year_min": "2020", "year_max": "2021"})
        assert {p.year for p in in_range.context["page"].object_list} == {2020, 2021}
        assert (
            in_range.context["page"].paginator.count
            == published().filter(year__in=[2020, 2021]).count()
        )

    def test_author_filter_returns_exactly_a_members_papers(self):
        response = self.client.get(URL, {"author": "zerui-wang"})
        assert slugs(response) == set(authored_by("zerui-wang").values_list("slug", flat=True))
        assert "Jet-Long: Efficient Long-Context Extension with Dynamic Bifocal RoPE" in titles(
            response
        )

    def test_combined_filters_intersect(self):
        response = self.client.get(URL, {"venue": "NSDI", "year": "2024", "author": "zerui-wang"})
        assert sorted(titles(response)) == [
            "Characterization of Large Language Model Development in the Datacenter",
            "SchedMate: Large Language Models are DL Scheduling Enhancers",
        ]
        haoran_nsdi = self.client.get(URL, {"venue": "NSDI", "author": "haoran-zhang"})
        assert titles(haoran_nsdi) == [
            "Mucache: a General Framework for Caching in Microservice Graphs"
        ]

    def test_type_award_and_word_filters(self):
        assert titles(self.client.get(URL, {"type": "poster"})) == [
            "SchedMate: Large Language Models are DL Scheduling Enhancers"
        ]
        awarded = titles(self.client.get(URL, {"award": "1"}))
        assert awarded == ["CausalMesh: A Causal Cache for Stateful Serverless Computing"]
        assert titles(self.client.get(URL, {"q": "serverless kallas"})) == [
            "Executing Microservice Applications on Serverless, Correctly"
        ]

    def test_words_match_titles_and_author_names_all_words_required(self):
        by_author = self.client.get(URL, {"q": "Kaffes"})
        assert titles(by_author) == [
            "RackSched: A Microsecond-Scale Scheduler for Rack-Scale Computers"
        ]
        both = self.client.get(URL, {"q": "caching kallas"})
        assert titles(both) == ["Mucache: a General Framework for Caching in Microservice Graphs"]

    def test_facet_counts_apply_the_other_filters(self):
        response = self.client.get(URL, {"author": "haoran-zhang", "venue": "OSDI"})
        haoran = authored_by("haoran-zhang")
        haoran_osdi = haoran.filter(venue__short_name="OSDI")
        venues = facet(response, "venue")
        # The venue facet ignores the venue filter: all of Haoran's venues, with his counts.
        assert venues == Counter(
            haoran.exclude(venue=None).values_list("venue__short_name", flat=True)
        )
        assert {"OSDI", "NSDI"} <= venues.keys()
        assert "SIGCOMM" not in venues  # a venue of the lab's, not of his
        # The year and type facets apply both the author and the venue filter.
        years = facet(response, "year")
        assert years == Counter(str(year) for year in haoran_osdi.values_list("year", flat=True))
        assert len(years) > 1
        assert facet(response, "type") == Counter(haoran_osdi.values_list("type", flat=True))
        options = response.context["facets"]["venue"].options
        selected = [option.value for option in options if option.selected]
        assert selected == ["OSDI"]

    def test_active_filters_each_link_to_the_list_without_them(self):
        response = self.client.get(f"{URL}?venue=NSDI&venue=OSDI&year=2024")
        chips = {chip.label: chip.remove_query for chip in response.context["active_filters"]}
        assert chips == {
            "Venue: NSDI": "venue=OSDI&year=2024",
            "Venue: OSDI": "venue=NSDI&year=2024",
            "Year: 2024": "venue=NSDI&venue=OSDI",
        }
        assert 'href="/publications/">Clear all</a>' in response.content.decode()

    def test_members_are_linked_and_equal_contribution_is_marked(self):
        html = self.client.get(URL, {"q": "Klotski"}).content.decode()
        assert 'Yihao Zhao</bdi><abbr class="equal" title="Equal contribution">*</abbr>' in html
        assert '<a class="member" href="/people/hang-zhu/"><bdi>Hang Zhu</bdi></a>' in html
        assert "contributed equally" in html

    def test_badges_show_accepted_poster_preprint_and_awards(self):
        html = self.client.get(URL, {"author": "zerui-wang"}).content.decode()
        assert '<span class="badge badge--accepted">Accepted</span>' in html
        assert '<span class="badge badge--poster">Poster</span>' in html
        assert '<span class="badge badge--preprint">Preprint</span>' in html
        awards = self.client.get(URL, {"award": "1"}).content.decode()
        assert '<span class="badge badge--award">Best Paper Award Nominee</span>' in awards

    @parametrize(
        ("query", "ignored"),
        [
            ({"year": "abc"}, "“abc” is not a year"),
            ({"year": "99999999999999999999"}, "“99999999999999999999” is not a year"),
            ({"year_max": "99999999999999999999"}, "To year “99999999999999999999” was ignored"),
            ({"venue": "NOPE"}, "Venue “NOPE” was ignored"),
            ({"author": "nobody"}, "Lab member “nobody” was ignored"),
            ({"year_min": "soon"}, "From year “soon” was ignored"),
            ({"type": "novel"}, "Type “novel” was ignored"),
            (
                {"q": "x" * 10_000},
                "Words in title or authors “xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…” was ignored",
            ),
            ({"q": " ".join(["word"] * 40)}, "at most 12 words"),
        ],
        ids=[
            "year_not_a_number",
            "year_too_large",
            "year_max_too_large",
            "unknown_venue",
            "unknown_member",
            "year_min_not_a_number",
            "unknown_type",
            "words_too_long",
            "too_many_words",
        ],
    )
    def test_a_bad_value_is_ignored_and_said_so_plainly(self, query, ignored):
        response = self.client.get(URL, query)
        assert response.status_code == 200
        assert ignored in response.content.decode()
        assert response.context["page"].paginator.count == published().count()

    def test_an_unknown_but_valid_year_says_nothing_matches(self):
        response = self.client.get(URL, {"year": "1850"})
        assert response.status_code == 200
        assert "No publication matches these filters" in response.content.decode()

    @parametrize(
        "page", ["0", "999", "abc", "-1"], ids=["zero", "past_the_last", "not_a_number", "negative"]
    )
    def test_a_page_that_does_not_exist_is_a_404(self, page):
        assert self.client.get(URL, {"page": page}).status_code == 404


class PublicationListRowsTests(TestCase):
    """On rows each test builds: pages and drafts."""

    def test_pages_keep_the_filters_in_their_links(self):
        venue = make_venue(short_name="NSDI")
        for number in range(60):
            make_publication(title=f"Paper {number:02d}", venue=venue)
        response = self.client.get(URL, {"venue": "NSDI"})
        assert len(response.context["page"].object_list) == 50
        assert 'href="?venue=NSDI&amp;page=2"' in response.content.decode()
        assert (
            len(self.client.get(URL, {"venue": "NSDI", "page": "2"}).context["page"].object_list)
            == 10
        )

    def test_drafts_are_not_listed(self):
        make_publication(title="Shown")
        make_publication(title="Draft", is_published=False)
        assert titles(self.client.get(URL)) == ["Shown"]


class PublicationListQueryCountTests(TestCase):
    """Few rows here; the subclass below runs the same test on many."""

    rows = 5

    @classmethod
    def setUpTestData(cls):
        make_publication_rows(cls.rows)

    def test_list_runs_a_fixed_number_of_queries(self):
        """Facets are aggregates and authors are prefetched: no query per publication or author.

        lab, venue choices, member choices, research group and area choices, count, the page's
        ids, its entries' rows (publications.entries) with authorships+people, awards, links, one
        aggregate per facet (venue, year and chart, type, member, funder) and the award count. The
        citation keys are stored on the rows.
        """
        assert count_queries(self.client, URL) == 17
        first, second = Person.objects.values_list("slug", flat=True)[:2]
        venue = Venue.objects.values_list("short_name", flat=True).first()
        filtered = f"{URL}?venue={venue}&year_min=2003&author={first}&author={second}&q=paper"
        response = self.client.get(filtered)
        assert response.context["ignored"] == [] and len(response.context["page"].object_list) > 0
        assert count_queries(self.client, filtered) == 17


class PublicationListQueryCountAtManyRowsTests(PublicationListQueryCountTests):
    rows = 200
