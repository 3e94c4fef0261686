"""Rows that the home page and the news list read from a large part of a table, kept until the
next change (base.site_cache.cached): the home page's featured and recent papers, and the
news filter's years and people.

These tests commit for real (transaction=True): the change stamp moves when a transaction
commits, as on a live site. The page cache is off so that every request renders its page.
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from publications.models import Publication
from tests.factories import make_news, make_person, make_publication

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("rendered_anew")]


def featured_queries(queries: CaptureQueriesContext) -> list[str]:
    """The queries that choose papers by whether they are featured."""
    return [q["sql"] for q in queries if "is_featured" in q["sql"].partition(" WHERE ")[2]]


def test_the_home_pages_papers_are_found_once_until_the_next_change(client):
    make_publication(title="Klotski", year=2023)
    with CaptureQueriesContext(connection) as first:
        client.get("/")
    with CaptureQueriesContext(connection) as again:
        page = client.get("/").text
    assert len(featured_queries(first)) == 2  # the featured papers, then the others
    assert featured_queries(again) == []
    assert "Featured publications" not in page and ">Klotski</a>" in page

    paper = Publication.objects.get(title="Klotski")
    paper.is_featured = True
    paper.save()  # commits: the stamp moves
    page = client.get("/").text
    assert "Featured publications" in page
    assert page.index(">Klotski</a>") > page.index("Featured publications")


def news_about(person_name: str, slug: str, date: str):
    make_news(title=f"News of {person_name}", date=date).people.add(
        make_person(name=person_name, slug=slug)
    )


def test_the_news_filters_choices_follow_the_news(client):
    news_about("Hang Zhu", "hang-zhu", "2025-03")
    page = client.get("/news/").text
    assert '<option value="2025">2025</option>' in page
    assert '<option value="hang-zhu">Hang Zhu</option>' in page
    assert "2024" not in page

    news_about("Bo Zhao", "bo-zhao", "2024-11")  # commits: the stamp moves
    page = client.get("/news/").text
    assert '<option value="2024">2024</option>' in page
    assert '<option value="bo-zhao">Bo Zhao</option>' in page
    with CaptureQueriesContext(connection) as again:
        client.get("/news/")
    assert not [q for q in again if "DISTINCT" in q["sql"]]


def test_a_profiles_chart_is_drawn_once_until_the_next_change(client):
    hang = make_person(name="Hang Zhu", slug="hang-zhu")
    make_publication(title="Klotski", year=2023, authors=[hang])
    first = client.get("/people/hang-zhu/")
    again = client.get("/people/hang-zhu/")
    assert "includes/year_chart.html" in {t.name for t in first.templates}
    assert "includes/year_chart.html" not in {t.name for t in again.templates}
    assert again.text == first.text
    assert 'aria-label="2023: 1 publication"' in first.text

    make_publication(title="Ring", year=2025, authors=["Ann Lee", hang])
    page = client.get("/people/hang-zhu/").text
    assert 'aria-label="2025: 1 publication"' in page
    assert "?author=hang-zhu&amp;year_min=2025&amp;year_max=2025" in page


def test_an_areas_papers_follow_the_papers_filed_under_it(client):
    from people.models import ResearchArea

    area = ResearchArea.objects.create(name="Networks", slug="networks", is_published=True)
    make_publication(title="Klotski", year=2023).areas.add(area)
    page = client.get("/areas/networks/").text
    assert ">Klotski</a>" in page and 'aria-label="2023: 1 publication"' in page
    with CaptureQueriesContext(connection) as again:
        client.get("/areas/networks/")
    assert len(again) and not [q for q in again if "GROUP BY" in q["sql"]]  # years kept
    make_publication(title="Ring", year=2025).areas.add(area)  # commits: the stamp moves
    page = client.get("/areas/networks/").text
    assert ">Ring</a>" in page and 'aria-label="2025: 1 publication"' in page


def test_a_profiles_person_and_cv_are_read_once_until_the_next_change(client):
    from people.models import Education

    hang = make_person(name="Hang Zhu", slug="hang-zhu")
    Education.objects.create(person=hang, position=1, degree="Ph.D.", institution="Tsinghua")
    first = client.get("/people/hang-zhu/").text
    with CaptureQueriesContext(connection) as again:
        kept = client.get("/people/hang-zhu/").text
    assert kept == first and "Tsinghua" in kept
    assert not [q for q in again if "people_education" in q["sql"]]

    Education.objects.create(person=hang, position=2, degree="B.E.", institution="Peking")
    page = client.get("/people/hang-zhu/").text  # the save moved the stamp
    assert "Tsinghua" in page and "Peking" in page


def test_a_draft_profile_is_read_anew_for_each_preview(client, editor):
    from people.models import Education

    draft = make_person(name="Bo Zhao", slug="bo-zhao", is_published=False)
    Education.objects.create(person=draft, position=1, degree="Ph.D.", institution="Tsinghua")
    client.force_login(editor)
    client.get("/people/bo-zhao/")
    with CaptureQueriesContext(connection) as again:
        assert "Tsinghua" in client.get("/people/bo-zhao/").text
    assert [q for q in again if "people_education" in q["sql"]]
    client.logout()
    assert client.get("/people/bo-zhao/").status_code == 404
