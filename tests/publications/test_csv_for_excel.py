"""The CSV for Excel starts with a UTF-8 byte-order mark, the one sign by which Excel on Windows
reads it as UTF-8; the plain CSV, which programs read, has none."""

import csv
import io

import pytest

from tests.factories import make_publication


@pytest.mark.django_db
def test_the_csv_for_excel_starts_with_a_byte_order_mark_and_keeps_accents(client):
    make_publication(title="Über Caches", authors=["José Núñez"], is_published=True)
    response = client.get("/publications/export.csv", {"excel": "1"})
    assert response.status_code == 200
    content = b"".join(response) if response.streaming else response.content
    assert content.startswith("\ufeff".encode())
    rows = list(csv.DictReader(io.StringIO(content.decode("utf-8-sig"))))
    assert [(row["title"], row["authors"]) for row in rows] == [("Über Caches", "José Núñez")]


@pytest.mark.django_db
def test_the_plain_csv_has_no_byte_order_mark_and_the_list_links_both(client):
    make_publication(title="Über Caches", is_published=True)
    assert not client.get("/publications/export.csv").content.startswith(b"\xef\xbb\xbf")
    page = client.get("/publications/").content.decode()
    assert "/publications/export.csv?excel=1" in page
