"""The JSON API on rows made here: drafts never appear, pages are stable, queries constant."""

import pytest

from publications.models import Publication
from tests.factories import (
    count_queries,
    make_news,
    make_person,
    make_publication,
    make_publication_rows,
    make_venue,
)

pytestmark = pytest.mark.django_db


def slugs(client, url) -> list[str]:
    response = client.get(url)
    assert response.status_code == 200, response.content
    return [row["slug"] for row in response.json()["results"]]


def test_drafts_never_appear_in_any_list_or_by_slug(client):
    member = make_person(slug="member")
    hidden = make_person(slug="hidden", name="Hidden Person", is_published=False)
    venue = make_venue(short_name="HIDE")
    shown = make_publication(slug="shown", authors=[member, hidden], venue=venue)
    make_publication(slug="draft-paper", authors=[member], venue=venue, is_published=False)
    news = make_news(slug="shown-news")
    news.people.add(member, hidden)
    news.publications.add(shown)
    news.publications.add(make_publication(slug="draft-in-news", is_published=False))
    make_news(slug="draft-news", is_published=False)

    assert slugs(client, "/api/publications/") == ["shown"]
    assert slugs(client, "/api/people/") == ["member"]
    assert slugs(client, "/api/news/") == ["shown-news"]
    for url in ["/api/publications/draft-paper/", "/api/people/hidden/", "/api/news/draft-news/"]:
        assert client.get(url).status_code == 404

    authors = client.get("/api/publications/shown/").json()["authors"]
    assert [(author["name"], author["person"]) for author in authors] == [
        (member.name, "member"),
        ("Hidden Person", None),
    ]
    item = client.get("/api/news/shown-news/").json()
    assert [person["slug"] for person in item["people"]] == ["member"]
    assert [paper["slug"] for paper in item["publications"]] == ["shown"]
    assert client.get("/api/venues/HIDE/").json()["publication_count"] == 1
    facet = client.get("/api/publications/").json()["facets"]["venue"]
    assert [(option["value"], option["count"]) for option in facet] == [("HIDE", 1)]


def test_pages_of_papers_sharing_a_year_and_title_neither_repeat_nor_skip_one(client):
    for number in range(120):
        make_publication(slug=f"same-{number:03d}", title="Same Title", year=2024)
    first = client.get("/api/publications/").json()
    second = client.get(first["next"]).json()
    third = client.get(second["next"]).json()
    assert (first["count"], first["pages"], third["next"]) == (120, 3, None)
    seen = [row["slug"] for page in (first, second, third) for row in page["results"]]
    assert sorted(seen) == [f"same-{number:03d}" for number in range(120)]
    assert second["previous"].endswith("/api/publications/?page=1")


def test_the_next_page_keeps_the_filters(client):
    venue = make_venue(short_name="NSDI")
    for _ in range(60):
        make_publication(venue=venue)
    make_publication()
    first = client.get("/api/publications/?venue=NSDI").json()
    assert first["next"] == "http://testserver/api/publications/?venue=NSDI&page=2"
    assert len(client.get(first["next"]).json()["results"]) == 10


@pytest.mark.parametrize("rows", [5, 60])
def test_each_list_runs_a_fixed_number_of_queries(client, rows):
    """No query per row, author, award, link or person named: each list's count is the same
    at 5 rows and at 60, more than a page of 50 (200 rows took 20 s of the CI run)."""
    make_publication_rows(rows, with_links=True)
    for _ in range(rows):
        make_news().people.add(make_person())
    paper = Publication.objects.order_by("pk").first()
    member = paper.authorships.order_by("position").first().person.slug
    query = f"venue={paper.venue.short_name}&year={paper.year}&author={member}&q=paper"
    expected = {
        # venue choices, member choices, research group and area choices, count, rows, authors
        # with their people, awards, links, one aggregate per facet (venue, type, member, funder),
        # the years, the award count
        "/api/publications/": 15,
        f"/api/publications/?{query}": 15,
        # role, research group and area choices, count, rows with their groups, their links
        "/api/people/": 6,
        # count, rows with their counts
        "/api/venues/": 2,
        # year choices, person choices, count, rows, their people
        "/api/news/": 5,
    }
    assert {url: count_queries(client, url) for url in expected} == expected


@pytest.mark.parametrize("rows", [5, 50])
def test_each_object_runs_a_fixed_number_of_queries(client, rows):
    """A paper: itself with venue, authors, awards, links (its citation key is stored on it).
    A person: themselves with group, six CV prefetches, the profile's five department
    prefetches (the API reads the profile's own query). A news item: itself,
    its people, its papers. A venue: itself with its count."""
    person = make_person()
    venue = make_venue()
    publication = make_publication(authors=[person] + [f"Author {n}" for n in range(rows)])
    item = make_news()
    for _ in range(rows):
        item.people.add(make_person())
        item.publications.add(make_publication(venue=venue, authors=[person]))
    assert count_queries(client, f"/api/publications/{publication.slug}/") == 4
    assert count_queries(client, f"/api/people/{person.slug}/") == 12
    assert count_queries(client, f"/api/news/{item.slug}/") == 3
    assert count_queries(client, f"/api/venues/{venue.short_name}/") == 1
