"""The CV built from rows made here: drafts left out, constant queries, links that stay home."""

import pytest

from people.models import Education, Experience
from tests.factories import count_queries, make_news, make_person, make_publication
from tests.worker import visitor_pdf

pytestmark = pytest.mark.django_db


def make_cv(rows: int):
    person = make_person(research_interests="Systems")
    for number in range(rows):
        make_publication(
            title=f"Paper {number}",
            type=["conference-paper", "journal-article", "poster"][number % 3],
            authors=[person, "Outside Author"],
        )
        Education.objects.create(person=person, position=number, institution=f"U{number}")
        Experience.objects.create(person=person, position=number, title="T", organization="O")
        make_news().people.add(person)
    return person


@pytest.mark.parametrize("rows", [3, 120])
def test_the_cv_runs_a_fixed_number_of_queries(client, rows):
    """lab, person with group, six CV prefetches (links, education, experience, teaching,
    service, awards), the profile's five department prefetches (advisors, students,
    collaborators, groups, areas), publications with their three prefetches (authors, awards,
    links): no query per publication, author or entry."""
    person = make_cv(rows)
    assert count_queries(client, f"/people/{person.slug}/cv/") == 17


def test_draft_publications_are_left_out_of_the_cv(client):
    person = make_person()
    make_publication(title="Shown paper", authors=[person])
    make_publication(title="Draft paper", authors=[person], is_published=False)
    html = client.get(f"/people/{person.slug}/cv/").content.decode()
    assert "Shown paper" in html
    assert "Draft paper" not in html


def test_a_draft_profile_has_no_public_cv(client):
    person = make_person(is_published=False)
    assert client.get(f"/people/{person.slug}/cv/").status_code == 404
    assert client.get(f"/people/{person.slug}/cv.pdf").status_code == 404


@pytest.mark.needs("weasyprint")
def test_printing_reads_the_sites_own_files_and_fetches_nothing_else():
    """A link typed into a profile must never make the server fetch it while printing."""
    from base.documents import LocalFilesFetcher

    fetcher = LocalFilesFetcher(site_url="http://lab.example/")
    css = fetcher.fetch("http://lab.example/static/css/cv.css")
    assert b"@page" in css.read()
    for url in [
        "http://169.254.169.254/latest/meta-data/",
        "http://lab.example.attacker.org/static/css/cv.css",
        "file:///etc/passwd",
        "http://lab.example/static/../../etc/passwd",
        "http://lab.example/admin/",
    ]:
        with pytest.raises(ValueError):
            fetcher.fetch(url)


@pytest.mark.needs("weasyprint")
def test_printing_a_cv_leaves_truncated_photos_refused(client):
    """WeasyPrint's import lets Pillow load truncated images; the photo checks need it off."""
    from PIL import ImageFile

    person = make_person()
    assert visitor_pdf(client, f"/people/{person.slug}/cv.pdf").status_code == 200
    assert ImageFile.LOAD_TRUNCATED_IMAGES is False
