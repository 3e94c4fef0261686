"""Embedding a list of publications on another site: the HTML fragment, and the snippet staff
copy from a profile."""

import re

import pytest
from django.test import Client

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("seeded")]


def titles(html: str) -> list[str]:
    return re.findall(r'<p class="publication__title"><a href="[^"]+">([^<]+)</a>', html)


def test_the_fragment_holds_the_papers_of_the_list_with_the_same_filter(client):
    for query in ["author=hang-zhu", "venue=NSDI&year=2024", ""]:
        fragment = client.get(f"/publications/embed/?{query}")
        assert fragment.status_code == 200
        page = client.get(f"/publications/?{query}")
        listed = [publication.title for publication in page.context["page"].object_list]
        assert titles(fragment.content.decode().replace("&#x27;", "'")) == listed


def test_the_fragment_is_the_sites_markup_with_links_that_work_elsewhere(client):
    html = client.get("/publications/embed/?author=hang-zhu").content.decode()
    assert "<html" not in html and "<script" not in html
    assert '<ol class="publication-list">' in html and 'class="publication__authors"' in html
    links = re.findall(r'(?:href|src)="([^"]*)"', html)
    assert links
    assert all(link.startswith(("http://testserver/", "https://")) for link in links), links
    assert 'href="http://testserver/people/hang-zhu/"' in html


def test_the_fragment_refuses_a_filter_the_list_would_ignore(client):
    response = client.get("/publications/embed/?author=nobody")
    assert response.status_code == 400
    assert "Lab member “nobody” was ignored" in response.content.decode()


def test_staff_see_a_snippet_to_copy_on_a_profile_and_visitors_do_not(editor_client):
    assert "data-lab-publications" not in Client().get("/people/hang-zhu/").content.decode()
    html = editor_client.get("/people/hang-zhu/").content.decode()
    snippet = re.search(
        r'<details class="embed-snippet">.*?<pre[^>]*><code>(.*?)</code></pre>', html, re.S
    ).group(1)
    assert "&lt;div data-lab-publications=&quot;author=hang-zhu&quot;" in snippet
    assert "&lt;script src=&quot;http://testserver/static/js/embed.js&quot; async&gt;" in snippet
    assert 'href="http://testserver/publications/embed/?author=hang-zhu"' in html
