import pytest

from publications.models import Publication

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("seeded")]

URL = "/publications/"


def titles(response) -> list[str]:
    return [publication.title for publication in response.context["page"].object_list]


def slugs(response) -> set[str]:
    return {publication.slug for publication in response.context["page"].object_list}


def facet(response, name) -> dict[str, int]:
    if name == "year":
        return {str(option.year): option.count for option in response.context["year_options"]}
    return {option.value: option.count for option in response.context["facets"][name].options}


def test_lists_newest_year_first_with_a_count(client):
    response = client.get(URL)
    assert response.status_code == 200
    years = [publication.year for publication in response.context["page"].object_list]
    dated = [year for year in years if year is not None]
    assert dated == sorted(dated, reverse=True)
    assert years[-1] is None  # OneFlow, the undated preprint, comes last
    assert response.context["page"].paginator.count == 29
    assert "<strong>29</strong> publications" in response.content.decode()


def test_venue_filter_returns_exactly_that_venues_papers_ignoring_case(client):
    response = client.get(URL, {"venue": "nsdi"})
    assert slugs(response) == set(
        Publication.objects.filter(venue__short_name="NSDI").values_list("slug", flat=True)
    )
    assert len(slugs(response)) == 5  # Minder, NetVRM, Mucache, SchedMate, Characterization


def test_repeated_venues_are_combined_with_or(client):
    response = client.get(f"{URL}?venue=NSDI&venue=OSDI")
    assert response.context["page"].paginator.count == 5 + 3


def test_year_filter_and_range_narrow_exactly(client):
    assert slugs(client.get(URL, {"year": "2024"})) == set(
        Publication.objects.filter(year=2024).values_list("slug", flat=True)
    )
    in_range = client.get(URL, {"year_min": "2020", "year_max": "2021"})
    assert {p.year for p in in_range.context["page"].object_list} == {2020, 2021}
    assert (
        in_range.context["page"].paginator.count
        == Publication.objects.filter(year__in=[2020, 2021]).count()
    )


def test_author_filter_returns_exactly_a_members_papers(client):
    response = client.get(URL, {"author": "zerui-wang"})
    assert response.context["page"].paginator.count == 9
    assert "Jet-Long: Efficient Long-Context Extension with Dynamic Bifocal RoPE" in titles(
        response
    )


def test_combined_filters_intersect(client):
    response = client.get(URL, {"venue": "NSDI", "year": "2024", "author": "zerui-wang"})
    assert sorted(titles(response)) == [
        "Characterization of Large Language Model Development in the Datacenter",
        "SchedMate: Large Language Models are DL Scheduling Enhancers",
    ]
    haoran_nsdi = client.get(URL, {"venue": "NSDI", "author": "haoran-zhang"})
    assert titles(haoran_nsdi) == [
        "Mucache: a General Framework for Caching in Microservice Graphs"
    ]


def test_type_award_and_word_filters(client):
    assert titles(client.get(URL, {"type": "poster"})) == [
        "SchedMate: Large Language Models are DL Scheduling Enhancers"
    ]
    awarded = titles(client.get(URL, {"award": "1"}))
    assert awarded == ["CausalMesh: A Causal Cache for Stateful Serverless Computing"]
    assert titles(client.get(URL, {"q": "serverless kallas"})) == [
        "Executing Microservice Applications on Serverless, Correctly"
    ]


def test_words_match_titles_and_author_names_all_words_required(client):
    by_author = client.get(URL, {"q": "Kaffes"})
    assert titles(by_author) == [
        "RackSched: A Microsecond-Scale Scheduler for Rack-Scale Computers"
    ]
    both = client.get(URL, {"q": "caching kallas"})
    assert titles(both) == ["Mucache: a General Framework for Caching in Microservice Graphs"]


def test_facet_counts_apply_the_other_filters(client):
    response = client.get(URL, {"author": "haoran-zhang", "venue": "OSDI"})
    venues = facet(response, "venue")
    # The venue facet ignores the venue filter: all of Haoran's venues, with his counts.
    assert venues["OSDI"] == 2
    assert venues["NSDI"] == 1
    assert venues["VLDB"] == 1
    assert "SIGCOMM" not in venues
    # The year facet applies both the author and the venue filter.
    assert facet(response, "year") == {"2024": 1, "2020": 1}
    assert facet(response, "type") == {"conference-paper": 2}
    options = response.context["facets"]["venue"].options
    selected = [option.value for option in options if option.selected]
    assert selected == ["OSDI"]


def test_active_filters_each_link_to_the_list_without_them(client):
    response = client.get(f"{URL}?venue=NSDI&venue=OSDI&year=2024")
    chips = {chip.label: chip.remove_query for chip in response.context["active_filters"]}
    assert chips == {
        "Venue: NSDI": "venue=OSDI&year=2024",
        "Venue: OSDI": "venue=NSDI&year=2024",
        "Year: 2024": "venue=NSDI&venue=OSDI",
    }
    assert 'href="/publications/">Clear all</a>' in response.content.decode()


def test_members_are_linked_and_equal_contribution_is_marked(client):
    html = client.get(URL, {"q": "Klotski"}).content.decode()
    assert 'Yihao Zhao<abbr class="equal" title="Equal contribution">*</abbr>' in html
    assert '<a class="member" href="/people/hang-zhu/">Hang Zhu</a>' in html
    assert "contributed equally" in html


def test_badges_show_accepted_poster_preprint_and_awards(client):
    html = client.get(URL, {"author": "zerui-wang"}).content.decode()
    assert '<span class="badge badge--accepted">Accepted</span>' in html
    assert '<span class="badge badge--poster">Poster</span>' in html
    assert '<span class="badge badge--preprint">Preprint</span>' in html
    awards = client.get(URL, {"award": "1"}).content.decode()
    assert '<span class="badge badge--award">Best Paper Award Nominee</span>' in awards


@pytest.mark.parametrize(
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
)
def test_a_bad_value_is_ignored_and_said_so_plainly(client, query, ignored):
    response = client.get(URL, query)
    assert response.status_code == 200
    assert ignored in response.content.decode()
    assert response.context["page"].paginator.count == 29


def test_an_unknown_but_valid_year_says_nothing_matches(client):
    response = client.get(URL, {"year": "1850"})
    assert response.status_code == 200
    assert "No publication matches these filters" in response.content.decode()


@pytest.mark.parametrize("page", ["0", "999", "abc", "-1"])
def test_a_page_that_does_not_exist_is_a_404(client, page):
    assert client.get(URL, {"page": page}).status_code == 404
