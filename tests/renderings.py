"""Every public rendering of a person, a publication or a news item, fetched with the test client
and read back with a real parser: html5lib for pages, an XML parser for feeds and the sitemap,
bibtexparser, rispy, json and csv for the exports, json for each page's JSON-LD.

Used by the tests of rows stored before validation existed and by the property-based suite.
"""

import csv
import io
import json
import re
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass, field

import bibtexparser
import html5lib
import rispy
from bibtexparser import middlewares

ATOM = "{http://www.w3.org/2005/Atom}"
JSON_LD = re.compile(r'<script type="application/ld\+json">(.*?)</script>', re.DOTALL)


@dataclass
class Reading:
    """What the parsers read back, per URL."""

    texts: dict[str, str] = field(default_factory=dict)  # page text, for HTML
    feed_titles: dict[str, list[str]] = field(default_factory=dict)
    json_ld: dict[str, list[dict]] = field(default_factory=dict)
    bibtex: dict[str, list] = field(default_factory=dict)
    ris: list[dict] = field(default_factory=list)
    csl: list[dict] = field(default_factory=list)
    csv_rows: list[dict] = field(default_factory=list)


def get_ok(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, f"{url} answered {response.status_code}"
    return response.content.decode()


def read_html(client, url: str, reading: Reading) -> None:
    text = get_ok(client, url)
    document = html5lib.parse(text, namespaceHTMLElements=False)
    reading.texts[url] = "".join(document.find("body").itertext())
    reading.json_ld[url] = [json.loads(block) for block in JSON_LD.findall(text)]


def read_feed(client, url: str, reading: Reading) -> None:
    root = ElementTree.fromstring(get_ok(client, url).encode())
    reading.feed_titles[url] = [
        entry.findtext(f"{ATOM}title") or "" for entry in root.iter(f"{ATOM}entry")
    ]


def read_bibtex(client, url: str, reading: Reading) -> None:
    library = bibtexparser.parse_string(
        get_ok(client, url), append_middleware=[middlewares.LatexDecodingMiddleware()]
    )
    assert library.failed_blocks == [], (
        f"{url}: {[(b.error, b.raw) for b in library.failed_blocks]}"
    )
    reading.bibtex[url] = library.entries


def read_exports(client, reading: Reading) -> None:
    read_bibtex(client, "/publications/export.bib", reading)
    reading.ris = rispy.loads(get_ok(client, "/publications/export.ris"))
    reading.csl = json.loads(get_ok(client, "/publications/export.json"))
    reading.csv_rows = list(csv.DictReader(io.StringIO(get_ok(client, "/publications/export.csv"))))


def read_sitemap(client) -> list[str]:
    root = ElementTree.fromstring(get_ok(client, "/sitemap.xml").encode())
    return [loc.text or "" for loc in root.iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc")]


def read_everything(client, *, person, publication, news) -> Reading:
    """Every page, feed and export that shows these three rows."""
    reading = Reading()
    for url in (
        "/",
        "/people/",
        person.get_absolute_url(),
        "/publications/",
        publication.get_absolute_url(),
        "/news/",
        news.get_absolute_url(),
    ):
        read_html(client, url, reading)
    read_feed(client, "/publications/feed/", reading)
    read_feed(client, f"/publications/feed/?author={person.slug}", reading)
    read_feed(client, "/news/feed/", reading)
    read_bibtex(client, f"/publications/{publication.slug}.bib", reading)
    read_exports(client, reading)
    read_sitemap(client)
    return reading
