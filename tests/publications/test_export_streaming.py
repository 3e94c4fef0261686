"""Exports of any size (issue 24): streamed in chunks of papers, each chunk read in a fixed
number of queries, validated by the site's change stamp like every page, and never refused for
their size. The bytes of a small export are held by tests/publications/test_exports.py."""

import csv
import io
import json

import bibtexparser
import pytest
import rispy
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from base.models import Lab
from pages.views import publications as views
from publications.models import Authorship, Publication
from tests.factories import make_publication, make_publication_rows, make_venue

FORMATS = ["bib", "ris", "json", "csv"]
# More papers than an export could hold before issue 24 (it refused past 2,000).
OLD_CAP = 2000


def body(response) -> bytes:
    return b"".join(response.streaming_content) if response.streaming else response.content


def titles_in(format: str, text: str) -> list[str]:
    """The titles of an export, read back with each format's own parser."""
    match format:
        case "bib":
            library = bibtexparser.parse_string(text)
            assert library.failed_blocks == []
            return [entry["title"].strip("{}") for entry in library.entries]
        case "ris":
            return [record["title"] for record in rispy.loads(text)]
        case "json":
            return [item["title"] for item in json.loads(text)]
        case _:
            return [row["title"] for row in csv.DictReader(io.StringIO(text))]


def make_many_papers(count: int) -> None:
    """`count` published papers with an author each, inserted in bulk: made one by one, as the
    admin does, they would take minutes."""
    venue = make_venue(short_name="NSDI")
    Publication.objects.bulk_create(
        Publication(
            title=f"Paper {number}",
            slug=f"bulk-paper-{number}",
            year=2000 + number % 20,
            venue=venue,
            citation_key=f"author{2000 + number % 20}paper{number}",
        )
        for number in range(count)
    )
    Authorship.objects.bulk_create(
        Authorship(publication=publication, position=1, name="Ann Lee")
        for publication in Publication.objects.all()
    )


@pytest.mark.django_db
def test_an_export_of_more_papers_than_the_old_cap_answers_200_with_every_paper(client):
    make_many_papers(OLD_CAP + 1)
    for format in FORMATS:
        response = client.get(f"/publications/export.{format}")
        assert response.status_code == 200, format
        assert response.streaming
        titles = titles_in(format, body(response).decode())
        assert sorted(titles) == sorted(f"Paper {number}" for number in range(OLD_CAP + 1))
    # A year's export, as the list's Export links offer it.
    response = client.get("/publications/export.bib", {"year": 2003})
    assert response.status_code == 200
    titles = titles_in("bib", body(response).decode())
    assert sorted(titles) == sorted(f"Paper {n}" for n in range(OLD_CAP + 1) if n % 20 == 3)


@pytest.mark.django_db
@pytest.mark.parametrize("format", FORMATS)
def test_a_streamed_export_holds_the_same_bytes_as_the_file_sent_whole(client, monkeypatch, format):
    make_publication_rows(20, with_links=True)
    make_publication(title="Ça, “quoted” & =formula", authors=["José García, Jr."])
    whole = client.get(f"/publications/export.{format}")
    assert not whole.streaming
    monkeypatch.setattr(views, "EXPORT_CHUNK_ROWS", 3)
    streamed = client.get(f"/publications/export.{format}")
    assert streamed.streaming
    assert streamed["Content-Type"] == whole["Content-Type"]
    assert streamed["Content-Disposition"] == whole["Content-Disposition"]
    assert body(streamed) == whole.content


@pytest.mark.django_db
@pytest.mark.parametrize("format", FORMATS)
def test_an_export_runs_a_fixed_number_of_queries_per_chunk_not_per_paper(
    client, monkeypatch, format
):
    """30 papers in 1, 2 and 3 chunks: each chunk adds the same few queries (its ids, papers,
    authors, links, awards or venues), never one per paper."""
    make_publication_rows(30, with_links=True)
    counts = []
    for chunk_size in (30, 15, 10):
        monkeypatch.setattr(views, "EXPORT_CHUNK_ROWS", chunk_size)
        with CaptureQueriesContext(connection) as queries:
            response = client.get(f"/publications/export.{format}")
            assert len(titles_in(format, body(response).decode())) == 30
        counts.append(len(queries))
    per_chunk = 5 if format == "bib" else 4
    assert counts == [counts[0], counts[0] + per_chunk, counts[0] + 2 * per_chunk]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("format", FORMATS)
def test_a_streamed_export_carries_the_etag_and_answers_304_when_unchanged(monkeypatch, format):
    Lab.objects.current()  # made on the first page otherwise, which would move the stamp
    make_publication_rows(10)
    monkeypatch.setattr(views, "EXPORT_CHUNK_ROWS", 3)
    client = Client()
    first = client.get(f"/publications/export.{format}")
    assert first.streaming
    assert first["ETag"].startswith('W/"')
    assert "public" in first["Cache-Control"]
    body(first)
    again = client.get(
        f"/publications/export.{format}",
        headers={"If-None-Match": first["ETag"]},
    )
    assert again.status_code == 304
    make_publication(title="New")
    changed = client.get(
        f"/publications/export.{format}",
        headers={"If-None-Match": first["ETag"]},
    )
    assert changed.status_code == 200
    assert "New" in titles_in(format, body(changed).decode())
