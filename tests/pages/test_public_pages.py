"""Who the site belongs to, news that leads somewhere, CV entries without repeats, and pages
the strict CSP can serve: built from rows each test makes."""

import re

import pytest
from django.test import Client

from base.models import Lab
from base.partial_dates import PartialDate
from people.models import Award
from tests.factories import make_news, make_person, make_publication

pytestmark = pytest.mark.django_db

NOTICE = "the site is still called"


def test_staff_are_told_while_the_lab_still_has_the_default_name(editor_client):
    html = editor_client.get("/").content.decode()
    assert NOTICE in html
    assert 'href="/admin/directory/lab/1/change/"' in html
    assert NOTICE not in Client().get("/").content.decode()  # visitors never see it


def test_a_named_lab_shows_its_identity_everywhere_and_staff_get_no_notice(editor_client):
    Lab.objects.filter(pk=Lab.objects.current().pk).update(
        name="Networked Systems Lab",
        tagline="Fast, correct distributed systems.",
        institution="School of Computing, Example University",
        about="We build **systems**.",
    )
    make_person(slug="ada", name="Ada Lovelace")
    home = editor_client.get("/").content.decode()
    assert NOTICE not in home
    assert '<h1 id="lab-name">Networked Systems Lab</h1>' in home
    assert "Fast, correct distributed systems." in home
    assert "<strong>systems</strong>" in home
    assert home.count("School of Computing, Example University") == 2  # hero and footer
    profile = editor_client.get("/people/ada/").content.decode()
    assert "<title>Ada Lovelace · Networked Systems Lab</title>" in profile
    assert (
        '<a class="site-name" href="/"><span class="site-name__text">Networked Systems Lab</span></a>'
        in profile
    )


def test_a_news_item_without_a_body_links_its_story_elsewhere_not_an_empty_page(client):
    make_news(
        slug="post",
        title="Linear Attention, Visualized",
        kind="blog-post",
        link="https://blog.example.org/linear-attention",
    )
    make_news(slug="line", title="A one-line item")
    make_news(slug="story", title="A full story", body="Told at length.")
    html = client.get("/news/").content.decode()
    assert '<a href="https://blog.example.org/linear-attention" rel="noopener">' in html
    assert 'href="/news/post/"' not in html
    assert "A one-line item" in html and 'href="/news/line/"' not in html
    assert '<a href="/news/story/">A full story</a>' in html


def test_a_one_line_item_links_the_papers_it_names(client):
    paper = make_publication(title="Jet-Long", slug="jet-long")
    make_news(title="Jet-Long was accepted.").publications.add(paper)
    html = client.get("/news/").content.decode()
    assert 'About <a href="/publications/jet-long/">Jet-Long</a>' in html


def test_an_award_does_not_repeat_a_year_its_details_already_give(client):
    person = make_person(slug="hao")
    Award.objects.create(
        person=person,
        position=1,
        title="Jay Lepreau Best Paper Award",
        details="OSDI 2021, for Pollux",
        date=PartialDate(2021),
    )
    Award.objects.create(person=person, position=2, title="Fellowship", date=PartialDate(2019))
    html = client.get("/people/hao/").content.decode()
    assert '<span class="cv__when">2021</span>' not in html
    assert "OSDI 2021, for Pollux" in html
    assert '<span class="cv__when">2019</span>' in html


def test_no_page_has_a_style_attribute_the_csp_would_block(client):
    member = make_person(slug="ada", name="Ada Lovelace")
    for year in (2019, 2021, 2024):
        make_publication(authors=[member], year=year)
    make_news(slug="n", body="Body.")
    for url in [
        "/",
        "/people/",
        "/people/ada/",
        "/publications/",
        "/news/",
        "/news/n/",
        "/search/?q=ada",
    ]:
        html = client.get(url).content.decode()
        assert not re.search(r"<[^>]+\sstyle=", html), url
        assert "<script>" not in html, url
    chart = client.get("/publications/").content.decode()
    assert chart.count('class="chart__link"') == 3
