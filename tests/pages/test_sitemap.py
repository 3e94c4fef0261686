"""/sitemap.xml lists every public page, in each language, and nothing hidden; /robots.txt
points to it."""

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.templatetags.static import static
from lxml import etree

from tests.factories import make_news, make_person, make_publication, sitemap_locations

pytestmark = pytest.mark.django_db

SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
XHTML = "{http://www.w3.org/1999/xhtml}"


def test_the_sitemap_lists_every_public_page_and_no_draft_or_one_line_news(client):
    person = make_person(slug="ada")
    make_person(slug="hidden-person", is_published=False)
    publication = make_publication(slug="paper")
    make_publication(slug="draft-paper", is_published=False)
    news = make_news(slug="news-item", body="What happened.")
    make_news(slug="one-line-news", body=" \n")
    make_news(slug="draft-news", body="Not yet.", is_published=False)
    site = "http://testserver"
    pages = {
        "/",
        "/people/",
        "/publications/",
        "/news/",
        person.get_absolute_url(),
        publication.get_absolute_url(),
        news.get_absolute_url(),
    }
    # Each page once per language: English at its plain address, Chinese under /zh-hans/.
    assert sitemap_locations(client) == {f"{site}{page}" for page in pages} | {
        f"{site}/zh-hans{page}" for page in pages
    }


def test_each_page_in_the_sitemap_names_its_versions_in_every_language(client):
    """As the pages' own hreflang links do, so a search engine shows each reader the version
    in their language; x-default (English) for the others."""
    person = make_person(slug="ada")
    root = ET.fromstring(client.get("/sitemap.xml").content)
    entries = {
        url.findtext(f"{SITEMAP}loc"): {
            link.get("hreflang"): link.get("href") for link in url.findall(f"{XHTML}link")
        }
        for url in root.findall(f"{SITEMAP}url")
    }
    site = "http://testserver"
    versions = {
        "en": f"{site}/people/ada/",
        "zh-hans": f"{site}/zh-hans/people/ada/",
        "x-default": f"{site}/people/ada/",
    }
    assert entries[f"{site}{person.get_absolute_url()}"] == versions
    assert entries[f"{site}/zh-hans/people/ada/"] == versions
    page = client.get("/zh-hans/people/ada/").content.decode()
    for language, address in versions.items():
        assert f'<link rel="alternate" hreflang="{language}" href="{address}">' in page


def test_every_page_in_the_sitemap_loads(client):
    make_person()
    make_publication(authors=["Someone"])
    make_news(body="A story.")
    for location in sitemap_locations(client):
        assert client.get(location.removeprefix("http://testserver")).status_code == 200


def test_the_sitemap_uses_the_address_the_site_is_reached_at(client):
    response = client.get("/sitemap.xml", headers={"host": "localhost"}, secure=True)
    assert b"<loc>https://localhost/</loc>" in response.content


def test_robots_txt_allows_pages_keeps_out_the_admin_and_names_the_sitemap(client):
    response = client.get("/robots.txt")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    lines = response.content.decode().splitlines()
    assert lines[0] == "User-agent: *"
    assert "Disallow: /admin/" in lines
    assert "Disallow: /publications/export." in lines
    assert "Disallow: /" not in lines
    assert "Sitemap: http://testserver/sitemap.xml" in lines


def test_favicon_ico_leads_to_the_sites_icon(client):
    """Asked for by browsers and crawlers whatever the pages' <link rel="icon"> says."""
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert "max-age=86400" in response["Cache-Control"]
    assert response["Location"] == static("img/favicon.svg")
    assert "<svg" in Path(finders.find("img/favicon.svg")).read_text()


# sitemaps.org's XML Schema for the protocol (0.9), as published.
SITEMAP_SCHEMA = Path(__file__).parent.parent / "data" / "sitemap.xsd"
# The same with the xhtml:link alternates that name each page's other languages.
SITEMAP_WITH_ALTERNATES_SCHEMA = SITEMAP_SCHEMA.with_name("sitemap-with-alternates.xsd")


def test_the_sitemap_is_valid_by_the_sitemap_protocols_xml_schema(client):
    make_person(slug="ada")
    make_publication(slug="paper", year=None)
    make_news(slug="news-item", body="What happened.", date="2026-07")
    schema = etree.XMLSchema(etree.parse(str(SITEMAP_WITH_ALTERNATES_SCHEMA)))
    sitemap = etree.fromstring(client.get("/sitemap.xml").content)
    assert sitemap.find(".//{http://www.w3.org/1999/xhtml}link") is not None
    valid = schema.validate(sitemap)
    assert valid, [str(error) for error in schema.error_log]
    assert len(sitemap) > 3


def test_the_sitemap_schema_refuses_a_lastmod_that_is_no_date():
    """The check itself: a sitemap with "2026-07" as a date is refused."""
    schema = etree.XMLSchema(etree.parse(str(SITEMAP_SCHEMA)))
    bad = etree.fromstring(
        b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url>'
        b"<loc>https://example.org/</loc><lastmod>2026-7</lastmod></url></urlset>"
    )
    assert not schema.validate(bad)
