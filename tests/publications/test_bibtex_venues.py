"""The BibTeX review finds venues the way real exports name them (publications/bibtex/venues.py
through the import's VenueIndex), with the aliases staff keep on each venue, and never moves a
paper to another venue unless an editor ticks it."""

import json
import re
from pathlib import Path

from django.urls import reverse

from publications.bibtex import Decision, import_bibtex, parse_bibtex, review_bibliography
from publications.models import Publication, Venue, aliases_from_text
from tests.cases import EditorSignedIn, SeededTestCase, parametrize
from tests.factories import make_publication, make_venue
from tests.publications.venue_corpus import CORPUS, EXTRA_VENUES, SEEDED_ALIASES

URL = reverse("admin:publications_publication_import_bibtex")
VENUES_FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "venues.json"


def review(text: str):
    return review_bibliography(bibliography=parse_bibtex(text))


def bibtex_line(number: int, text: str) -> str:
    braced = text.replace("{", "").replace("}", "")
    return f"@inproceedings{{c{number}, title={{Corpus paper {number}}}, booktitle={{{braced}}}}}\n"


class BibtexVenueTests(EditorSignedIn, SeededTestCase):
    """On the seeded venues and papers, with an editor signed in."""

    def test_the_seeded_aliases_are_the_ones_the_corpus_was_written_for(self):
        rows = json.loads(VENUES_FIXTURE.read_text())
        seeded = {
            row["fields"]["short_name"]: aliases_from_text(row["fields"].get("aliases", ""))
            for row in rows
            if row["fields"].get("aliases")
        }
        assert seeded == SEEDED_ALIASES
        assert Venue.objects.get(short_name="NeurIPS").alias_list == SEEDED_ALIASES["NeurIPS"]

    def test_every_corpus_line_reviews_to_its_venue_through_the_database(self):
        for short_name, full_name, aliases, kind in EXTRA_VENUES:
            make_venue(
                short_name=short_name, full_name=full_name, aliases="\n".join(aliases), kind=kind
            )
        text = "".join(bibtex_line(number, line.text) for number, line in enumerate(CORPUS))
        items = review(text).entries
        assert len(items) == len(CORPUS)
        found = [None if item.venue.is_new else item.venue.venue.short_name for item in items]
        assert found == [line.venue for line in CORPUS]

    @parametrize(
        ("booktitle", "short_name"),
        [
            ("Proceedings of the ACM Special Interest Group on Data Communication", "SIGCOMM"),
            ("Proceedings of the 29th Symposium on Operating Systems Principles", "SOSP"),
            (
                "19th USENIX Symposium on Networked Systems Design and Implementation, NSDI 2022, "
                "Renton, WA, USA, April 4-6, 2022",
                "NSDI",
            ),
        ],
    )
    def test_the_issues_booktitles_name_the_seeded_venues(self, booktitle, short_name):
        (item,) = review(
            f"@inproceedings{{k, title={{Unseen}}, booktitle={{{booktitle}}}}}"
        ).entries
        assert item.venue.venue == Venue.objects.get(short_name=short_name)

    def test_an_existing_sigcomm_paper_under_its_long_name_is_a_duplicate_not_a_move(self):
        paper = Publication.objects.filter(venue__short_name="SIGCOMM").order_by("pk").first()
        (item,) = review(
            f"@inproceedings{{k, title={{{paper.title}}}, year={paper.year},"
            " booktitle={Proceedings of the ACM Special Interest Group on Data Communication}}"
        ).entries
        assert item.decision is Decision.DUPLICATE
        assert item.existing == paper

    def test_no_seeded_papers_venue_changes_on_a_default_import(self):
        """Every seeded paper again, each at a venue it is not at: updates, none ticked."""
        papers = list(Publication.objects.exclude(venue=None).select_related("venue"))
        other_line = {
            paper.pk: next(
                line for line in CORPUS if line.venue not in (None, paper.venue.short_name)
            )
            for paper in papers
        }
        text = "".join(
            f"@inproceedings{{p{paper.pk}, title={{{paper.title}}}, year={paper.year},"
            f" booktitle={{{other_line[paper.pk].text}}}}}\n"
            for paper in papers
        )
        result_review = review(text)
        assert all(item.moves_venue for item in result_review.entries if item.importable)
        assert result_review.ticked_keys == []
        before = dict(Publication.objects.values_list("pk", "venue"))
        make_publication(title="Brand new")
        new_entry = "@article{brandnew, title={Something Never Seen}, journal={Journal of Tests}}\n"
        result = import_bibtex(text=text + new_entry)
        assert [publication.title for publication in result.created] == ["Something Never Seen"]
        assert result.updated == ()
        after = dict(Publication.objects.filter(pk__in=before).values_list("pk", "venue"))
        assert after == before

    def test_the_review_page_leaves_out_a_venue_move_and_says_why(self):
        paper = Publication.objects.filter(venue__short_name="NSDI").order_by("pk").first()
        response = self.client.post(
            URL,
            {
                "text": f"@inproceedings{{move, title={{{paper.title}}}, year={paper.year},"
                " booktitle={Proceedings of the 29th Symposium on Operating Systems Principles}}",
            },
        )
        page = response.content.decode()
        assert response.context["skipped"] == {"move"}
        (leave_out,) = re.findall(r'<input type="checkbox" name="skip" value="move"[^>]*>', page)
        assert "checked" in leave_out  # left out unless an editor unticks "Leave out"
        assert "changes a paper already on the site, moving it to another venue" in page

    def test_two_venues_a_text_names_equally_are_shown_and_neither_is_chosen(self):
        first = make_venue(short_name="SoE", full_name="Symposium on Examples")
        second = make_venue(short_name="WoE", full_name="Symposium on Examples", kind="workshop")
        text = (
            "@inproceedings{amb, title={Ambiguous}, booktitle={Proc. of the Symposium on Examples}}"
        )
        (item,) = review(text).entries
        assert item.venue.is_new and item.venue.candidates == (first, second)
        assert not item.ticked_by_default
        page = self.client.post(URL, {"text": text}).content.decode()
        assert "could be Symposium on Examples (SoE) or Symposium on Examples (WoE)" in page

    def test_staff_edit_aliases_and_the_next_import_uses_them(self):
        venue = make_venue(
            short_name="HotThings", full_name="Workshop on Hot Things", kind="workshop"
        )
        text = "@inproceedings{h, title={Warm}, booktitle={Hot Topics Meeting}}"
        assert review(text).entries[0].venue.is_new
        response = self.client.post(
            reverse("admin:publications_venue_change", args=[venue.pk]),
            {
                "short_name": venue.short_name,
                "full_name": venue.full_name,
                "kind": venue.kind,
                "aliases": "Hot Topics Meeting\n  \nHT",
            },
        )
        assert response.status_code == 302
        assert review(text).entries[0].venue.venue == venue
