"""Exports of the seeded publications, each read back with a real parser."""

import csv
import io
import json

import bibtexparser
import pytest
import rispy
from bibtexparser import middlewares

from publications.models import Publication

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("seeded")]


def parse_bib(text: str):
    library = bibtexparser.parse_string(
        text, append_middleware=[middlewares.LatexDecodingMiddleware()]
    )
    assert library.failed_blocks == []
    return library


def listed_titles(client, query: dict) -> list[str]:
    page = client.get("/publications/", query).context["page"]
    assert page.paginator.num_pages == 1
    return [publication.title for publication in page.object_list]


def test_bibtex_export_of_everything_reads_back_entry_for_entry(client):
    response = client.get("/publications/export.bib")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/x-bibtex; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="publications.bib"'
    library = parse_bib(response.content.decode())
    assert len(library.entries) == Publication.objects.count() == 29
    assert len({entry.key for entry in library.entries}) == 29
    assert [entry["title"] for entry in library.entries] == listed_titles(client, {})


def test_bibtex_entries_carry_authors_in_order_venue_year_and_type(client):
    library = parse_bib(client.get("/publications/export.bib").content.decode())
    entries = {entry.key: entry for entry in library.entries}
    klotski = entries["zhao2023klotski"]
    assert klotski.entry_type == "inproceedings"
    assert klotski["author"].startswith("Yihao Zhao and Xiaoxiang Zhang and ")
    assert klotski["booktitle"] == (
        "ACM Special Interest Group on Data Communication Conference (SIGCOMM)"
    )
    assert klotski["year"] == "2023"
    ieee = next(entry for entry in library.entries if entry["title"].startswith("Runtime Recovery"))
    assert ieee["booktitle"] == "IEEE Symposium on Security and Privacy (S&P)"
    schedmate = next(entry for entry in library.entries if entry["title"].startswith("SchedMate"))
    assert schedmate["note"] == "Poster"


def test_an_undated_publication_without_venue_is_exported_without_an_invented_year(client):
    library = parse_bib(client.get("/publications/export.bib").content.decode())
    oneflow = next(entry for entry in library.entries if entry["title"].startswith("OneFlow"))
    assert oneflow.entry_type == "misc"
    assert "year" not in oneflow.fields_dict
    assert "howpublished" not in oneflow.fields_dict
    assert oneflow.key == "yuanoneflow"


@pytest.mark.parametrize(
    "query",
    [
        {"venue": "NSDI", "year": "2024"},
        {"author": "zerui-wang"},
        {"venue": ["NSDI", "OSDI"]},
        {"type": "preprint"},
        {"q": "serverless"},
        {"award": "1"},
        {"year_min": "2020", "year_max": "2021"},
    ],
)
def test_an_export_holds_exactly_what_the_list_shows_for_the_same_filters(client, query):
    library = parse_bib(client.get("/publications/export.bib", query).content.decode())
    assert [entry["title"] for entry in library.entries] == listed_titles(client, query)


def test_a_filter_value_the_list_would_ignore_is_refused_by_an_export(client):
    response = client.get("/publications/export.csv", {"author": "nobody"})
    assert response.status_code == 400
    assert "Lab member “nobody” was ignored" in response.content.decode()


def test_an_unknown_format_is_a_404(client):
    assert client.get("/publications/export.docx").status_code == 404


def test_ris_export_reads_back_with_rispy(client):
    response = client.get("/publications/export.ris", {"author": "haoran-zhang"})
    assert response["Content-Type"] == "application/x-research-info-systems; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="publications.ris"'
    records = rispy.loads(response.content.decode())
    assert [record["title"] for record in records] == listed_titles(
        client, {"author": "haoran-zhang"}
    )
    mucache = next(record for record in records if record["title"].startswith("Mucache"))
    assert mucache["type_of_reference"] == "CPAPER"
    assert mucache["authors"][0] == "Zhang, Haoran"
    assert mucache["year"] == "2024"
    assert mucache["secondary_title"].endswith("(NSDI)")
    assert mucache["urls"] == ["http://testserver/publications/mucache/"]


def test_csl_json_export_reads_back_as_json_with_the_same_keys(client):
    response = client.get("/publications/export.json")
    assert response["Content-Type"] == "application/vnd.citationstyles.csl+json; charset=utf-8"
    items = json.loads(response.content)
    library = parse_bib(client.get("/publications/export.bib").content.decode())
    assert [item["id"] for item in items] == [entry.key for entry in library.entries]
    by_id = {item["id"]: item for item in items}
    jet_long = by_id["tang2026jet"]
    assert jet_long["type"] == "paper-conference"
    assert jet_long["issued"] == {"date-parts": [[2026]]}
    assert jet_long["status"] == "forthcoming"
    assert jet_long["author"][1] == {"family": "Wang", "given": "Zerui"}
    assert jet_long["container-title-short"] == "NeurIPS"
    assert "issued" not in by_id["yuanoneflow"]
    assert by_id["yu2025dapo"]["type"] == "article"  # CSL's type for a preprint


def test_csv_export_reads_back_with_one_row_per_publication(client):
    response = client.get("/publications/export.csv", {"venue": "VLDB"})
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert [row["title"] for row in rows] == listed_titles(client, {"venue": "VLDB"})
    causalmesh = rows[0]
    assert causalmesh["citation_key"] == "zhang2025causalmesh"
    assert causalmesh["authors"] == "Haoran Zhang; Shuai Mu; Sebastian Angel; Vincent Liu"
    assert causalmesh["year"] == "2025"
    assert causalmesh["venue"] == "VLDB"
    assert causalmesh["awards"] == "Best Paper Award Nominee; ACM SIGMOD Research Highlight Award"


def test_the_list_links_to_exports_and_a_feed_with_its_filters(client):
    html = client.get("/publications/", {"venue": "NSDI", "year": "2024", "page": "1"}).content
    html = html.decode()
    for export in ["export.bib", "export.ris", "export.json", "export.csv", "feed/"]:
        assert f'href="/publications/{export}?venue=NSDI&amp;year=2024"' in html


def test_the_list_exports_what_it_shows_not_values_it_ignored(client):
    html = client.get("/publications/", {"venue": "NSDI", "year": "abc"}).content.decode()
    assert 'href="/publications/export.bib?venue=NSDI"' in html


def test_a_profile_links_to_exports_of_its_publications(client):
    html = client.get("/people/zerui-wang/").content.decode()
    assert 'href="/publications/export.bib?author=zerui-wang"' in html
    assert 'href="/publications/feed/?author=zerui-wang"' in html


def test_a_publication_has_a_bib_file_with_the_key_of_every_export(client):
    response = client.get("/publications/klotski.bib")
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="klotski.bib"'
    (entry,) = parse_bib(response.content.decode()).entries
    assert entry.key == "zhao2023klotski"
    assert client.get("/publications/no-such-paper.bib").status_code == 404


def test_the_cite_block_shows_the_same_bibtex_with_a_copy_button(client):
    html = client.get("/publications/klotski/").content.decode()
    bib = client.get("/publications/klotski.bib").content.decode()
    assert '<pre class="cite__bibtex" id="bibtex-klotski"' in html
    assert bib.replace("&", "&amp;") in html  # visible and selectable without JavaScript
    assert 'data-copy-target="bibtex-klotski" hidden>Copy BibTeX</button>' in html
    assert 'href="/publications/klotski.bib"' in html


def test_an_export_or_feed_with_a_year_no_database_can_hold_is_a_400(client):
    for url in ["/publications/export.bib", "/publications/export.csv", "/publications/feed/"]:
        assert client.get(url, {"year": "99999999999999999999"}).status_code == 400, url
