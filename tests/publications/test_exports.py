"""Exports of the publication list, each read back with a real parser: of the seeded papers;
and, of rows built here, the queries they run, drafts and characters that need care."""

import csv
import io
import json

import bibtexparser
import rispy
from bibtexparser import middlewares
from django.test import TestCase

from people.models import Person
from publications.bibtex import import_bibtex
from publications.exports import bibtex
from publications.models import Publication, Venue
from tests.cases import SeededTestCase, parametrize
from tests.factories import (
    count_queries,
    make_publication,
    make_publication_rows,
    make_venue,
)

FORMATS = ["bib", "ris", "json", "csv"]


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


class SeededExportTests(SeededTestCase):
    def test_bibtex_export_of_everything_reads_back_entry_for_entry(self):
        response = self.client.get("/publications/export.bib")
        assert response.status_code == 200
        assert response["Content-Type"] == "application/x-bibtex; charset=utf-8"
        assert response["Content-Disposition"] == 'attachment; filename="publications.bib"'
        library = parse_bib(response.content.decode())
        assert len(library.entries) == Publication.objects.published().count()
        assert len({entry.key for entry in library.entries}) == len(library.entries)
        assert [entry["title"] for entry in library.entries] == listed_titles(self.client, {})

    def test_bibtex_entries_carry_authors_in_order_venue_year_and_type(self):
        library = parse_bib(self.client.get("/publications/export.bib").content.decode())
        entries = {entry.key: entry for entry in library.entries}
        klotski = entries["zhao2023klotski"]
        assert klotski.entry_type == "inproceedings"
        assert klotski["author"].startswith("Yihao Zhao and Xiaoxiang Zhang and ")
        assert klotski["booktitle"] == (
            "ACM Special Interest Group on Data Communication Conference (SIGCOMM)"
        )
        assert klotski["year"] == "2023"
        ieee = next(
            entry for entry in library.entries if entry["title"].startswith("Runtime Recovery")
        )
        assert ieee["booktitle"] == "IEEE Symposium on Security and Privacy (S&P)"
        schedmate = next(
            entry for entry in library.entries if entry["title"].startswith("SchedMate")
        )
        assert schedmate["note"] == "Poster"

    def test_an_undated_publication_without_venue_is_exported_without_an_invented_year(self):
        library = parse_bib(self.client.get("/publications/export.bib").content.decode())
        oneflow = next(entry for entry in library.entries if entry["title"].startswith("OneFlow"))
        assert oneflow.entry_type == "misc"
        assert "year" not in oneflow.fields_dict
        assert "howpublished" not in oneflow.fields_dict
        assert oneflow.key == "yuanoneflow"

    @parametrize(
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
        ids=["venue_and_year", "member", "two_venues", "type", "words", "award", "year_range"],
    )
    def test_an_export_holds_exactly_what_the_list_shows_for_the_same_filters(self, query):
        library = parse_bib(self.client.get("/publications/export.bib", query).content.decode())
        assert [entry["title"] for entry in library.entries] == listed_titles(self.client, query)

    def test_a_filter_value_the_list_would_ignore_is_refused_by_an_export(self):
        response = self.client.get("/publications/export.csv", {"author": "nobody"})
        assert response.status_code == 400
        assert "Lab member “nobody” was ignored" in response.content.decode()

    def test_an_unknown_format_is_a_404(self):
        assert self.client.get("/publications/export.docx").status_code == 404

    def test_ris_export_reads_back_with_rispy(self):
        response = self.client.get("/publications/export.ris", {"author": "haoran-zhang"})
        assert response["Content-Type"] == "application/x-research-info-systems; charset=utf-8"
        assert response["Content-Disposition"] == 'attachment; filename="publications.ris"'
        records = rispy.loads(response.content.decode())
        assert [record["title"] for record in records] == listed_titles(
            self.client, {"author": "haoran-zhang"}
        )
        mucache = next(record for record in records if record["title"].startswith("Mucache"))
        assert mucache["type_of_reference"] == "CPAPER"
        assert mucache["authors"][0] == "Zhang, Haoran"
        assert mucache["year"] == "2024"
        assert mucache["secondary_title"].endswith("(NSDI)")
        assert mucache["urls"] == ["http://testserver/publications/mucache/"]

    def test_csl_json_export_reads_back_as_json_with_the_same_keys(self):
        response = self.client.get("/publications/export.json")
        assert response["Content-Type"] == "application/vnd.citationstyles.csl+json; charset=utf-8"
        items = json.loads(response.content)
        library = parse_bib(self.client.get("/publications/export.bib").content.decode())
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

    def test_csv_export_reads_back_with_one_row_per_publication(self):
        response = self.client.get("/publications/export.csv", {"venue": "VLDB"})
        assert response["Content-Type"] == "text/csv; charset=utf-8"
        rows = list(csv.DictReader(io.StringIO(response.content.decode())))
        assert [row["title"] for row in rows] == listed_titles(self.client, {"venue": "VLDB"})
        causalmesh = rows[0]
        assert causalmesh["citation_key"] == "zhang2025causalmesh"
        assert causalmesh["authors"] == "Haoran Zhang; Shuai Mu; Sebastian Angel; Vincent Liu"
        assert causalmesh["year"] == "2025"
        assert causalmesh["venue"] == "VLDB"
        assert (
            causalmesh["awards"] == "Best Paper Award Nominee; ACM SIGMOD Research Highlight Award"
        )

    def test_the_list_links_to_exports_and_a_feed_with_its_filters(self):
        html = self.client.get(
            "/publications/", {"venue": "NSDI", "year": "2024", "page": "1"}
        ).content
        html = html.decode()
        for export in ["export.bib", "export.ris", "export.json", "export.csv", "feed/"]:
            assert f'href="/publications/{export}?venue=NSDI&amp;year=2024"' in html

    def test_the_list_exports_what_it_shows_not_values_it_ignored(self):
        html = self.client.get("/publications/", {"venue": "NSDI", "year": "abc"}).content.decode()
        assert 'href="/publications/export.bib?venue=NSDI"' in html

    def test_a_profile_links_to_exports_of_its_publications(self):
        html = self.client.get("/people/zerui-wang/").content.decode()
        assert 'href="/publications/export.bib?author=zerui-wang"' in html
        assert 'href="/publications/feed/?author=zerui-wang"' in html

    def test_a_publication_has_a_bib_file_with_the_key_of_every_export(self):
        response = self.client.get("/publications/klotski.bib")
        assert response.status_code == 200
        assert response["Content-Disposition"] == 'attachment; filename="klotski.bib"'
        (entry,) = parse_bib(response.content.decode()).entries
        assert entry.key == "zhao2023klotski"
        assert self.client.get("/publications/no-such-paper.bib").status_code == 404

    def test_the_cite_block_shows_the_same_bibtex_with_a_copy_button(self):
        html = self.client.get("/publications/klotski/").content.decode()
        bib = self.client.get("/publications/klotski.bib").content.decode()
        assert '<pre class="cite__bibtex" id="bibtex-klotski"' in html
        assert bib.replace("&", "&amp;") in html  # visible and selectable without JavaScript
        assert 'data-copy-target="bibtex-klotski" hidden>Copy BibTeX</button>' in html
        assert 'href="/publications/klotski.bib"' in html

    def test_an_export_or_feed_with_a_year_no_database_can_hold_is_a_400(self):
        for url in ["/publications/export.bib", "/publications/export.csv", "/publications/feed/"]:
            assert self.client.get(url, {"year": "99999999999999999999"}).status_code == 400, url

    def test_the_seeded_publications_survive_a_round_trip_through_bibtex(self):
        """Export the seeded list, empty publications and venues, import the file: the same list."""

        def snapshot():
            return sorted(
                (
                    publication.title,
                    publication.year,
                    publication.venue.short_name if publication.venue else None,
                    publication.venue.full_name if publication.venue else None,
                    publication.venue.kind if publication.venue else None,
                    publication.type,
                    publication.status,
                    tuple(
                        (a.name, a.person and a.person.pk) for a in publication.authorships.all()
                    ),
                )
                for publication in Publication.objects.for_listing()
            )

        before = snapshot()
        text = self.client.get("/publications/export.bib").content.decode()
        assert len(bibtexparser.parse_string(text).entries) == len(before)
        Publication.objects.all().delete()
        Venue.objects.all().delete()

        result = import_bibtex(text=text)
        assert len(result.created) == len(before) and result.updated == ()
        assert snapshot() == before


class ExportRowsTests(TestCase):
    """On rows each test builds."""

    def test_drafts_are_not_exported(self):
        make_publication(title="Shown")
        draft = make_publication(title="Draft", is_published=False)
        text = self.client.get("/publications/export.bib").content.decode()
        assert "Shown" in text and "Draft" not in text
        assert self.client.get(f"/publications/{draft.slug}.bib").status_code == 404

    def test_accents_ampersands_braces_and_commas_survive_a_bibtex_round_trip(self):
        venue = make_venue(short_name="S&P", full_name="IEEE Symposium on Security & Privacy")
        publication = make_publication(
            title="Café {GPU} Über 100% of $x$_y & more",
            year=2021,
            venue=venue,
            authors=["José García", "Barnes and Noble, Inc.", "Ludwig van Beethoven"],
        )
        text = bibtex(Publication.objects.published().for_listing())
        Publication.objects.all().delete()
        Venue.objects.all().delete()
        result = import_bibtex(text=text)
        (imported,) = result.created
        assert imported.title == publication.title
        assert list(imported.authorships.values_list("name", flat=True)) == [
            "José García",
            "Barnes and Noble, Inc.",
            "Ludwig van Beethoven",
        ]
        assert (imported.venue.short_name, imported.venue.full_name) == (
            venue.short_name,
            venue.full_name,
        )


class ExportQueryCountTests(TestCase):
    """Few rows here; the subclass below runs the same tests on many."""

    rows = 5

    @classmethod
    def setUpTestData(cls):
        make_publication_rows(cls.rows, with_links=True)

    @parametrize("format", FORMATS)
    def test_an_export_runs_a_fixed_number_of_queries(self, format):
        """No query per publication, author, award or link; the citation keys are on the rows.

        venue choices, member choices, the ids in the export's order, then for each chunk of
        them (views.EXPORT_CHUNK_ROWS; tests/publications/test_export_streaming.py) the rows,
        authors' names, awards, links; BibTeX reads the chunk's ids again, then the rows of the
        papers whose entries are not kept (tests/publications/test_list_entries_kept.py).
        """
        member = Person.objects.first()
        expected = 8 if format == "bib" else 7
        assert count_queries(self.client, f"/publications/export.{format}") == expected
        filtered = f"/publications/export.{format}?author={member.slug}&year=2003&q=paper"
        assert count_queries(self.client, filtered) == expected


class ExportQueryCountAtManyRowsTests(ExportQueryCountTests):
    rows = 200
