"""COinS on publication lists, read back as Zotero reads them and compared field by field with
the BibTeX export of the same list, read with bibtexparser."""

import re
from html import unescape
from urllib.parse import parse_qs

import bibtexparser
from bibtexparser import middlewares

from tests.cases import SeededTestCase, parametrize

# What each OpenURL format and genre is in BibTeX, as Zotero maps both to its item types.
BIBTEX_TYPE_OF = {
    ("journal", "article"): "article",
    ("book", "proceeding"): "inproceedings",
    ("book", "bookitem"): "incollection",
    ("dissertation", None): "phdthesis",
    ("book", "document"): "misc",
}
VENUE_FIELDS = ["journal", "booktitle", "school", "howpublished"]


def spans(html: str) -> list[dict[str, list[str]]]:
    titles = re.findall(r'<span class="Z3988" title="([^"]*)"></span>', html)
    return [parse_qs(unescape(title)) for title in titles]


def from_coins(context: dict[str, list[str]]) -> dict:
    first = {key: values[0] for key, values in context.items()}
    kind = (first["rft_val_fmt"].removeprefix("info:ofi/fmt:kev:mtx:"), first.get("rft.genre"))
    dois = [value for value in context["rft_id"] if value.startswith("info:doi/")]
    return {
        "type": BIBTEX_TYPE_OF[kind],
        "title": first.get("rft.atitle") or first.get("rft.title") or first.get("rft.btitle"),
        "authors": context.get("rft.au", []),
        "venue": next(
            (first[key] for key in ("rft.jtitle", "rft.inst", "rft.pub") if key in first),
            first.get("rft.btitle") if first.get("rft.atitle") else None,
        ),
        "year": first.get("rft.date"),
        "doi": dois[0].removeprefix("info:doi/") if dois else None,
    }


def from_bibtex(entry) -> dict:
    fields = entry.fields_dict
    return {
        "type": entry.entry_type,
        "title": entry["title"],
        "authors": entry["author"].split(" and ") if "author" in fields else [],
        "venue": next((entry[name] for name in VENUE_FIELDS if name in fields), None),
        "year": entry["year"] if "year" in fields else None,
        "doi": entry["doi"] if "doi" in fields else None,
    }


def bibtex_of(client, query: str) -> list[dict]:
    text = client.get(f"/publications/export.bib?{query}").content.decode()
    library = bibtexparser.parse_string(
        text, append_middleware=[middlewares.LatexDecodingMiddleware()]
    )
    assert library.failed_blocks == []
    return [from_bibtex(entry) for entry in library.entries]


class SeededCoinsTests(SeededTestCase):
    """Over the seed's papers, which hold every kind of work the spans map."""

    @parametrize("query", ["", "author=hang-zhu", "venue=NSDI&year=2024"])
    def test_every_paper_of_a_list_reads_back_as_its_bibtex_entry(self, query):
        html = self.client.get(f"/publications/?{query}").content.decode()
        from_spans = [from_coins(context) for context in spans(html)]
        assert from_spans, "the list carries COinS"
        assert from_spans == bibtex_of(self.client, query)

    def test_every_kind_of_work_in_the_seed_is_covered(self):
        html = self.client.get("/publications/").content.decode()
        kinds = {from_coins(context)["type"] for context in spans(html)}
        assert {"inproceedings", "article", "misc"} <= kinds

    def test_each_span_names_the_papers_page_and_its_doi(self):
        html = self.client.get("/publications/?venue=NSDI&year=2024").content.decode()
        for context in spans(html):
            assert context["ctx_ver"] == ["Z39.88-2004"]
            assert context["rft_id"][0].startswith("http://testserver/publications/")

    def test_profiles_and_the_home_page_carry_coins_too(self):
        assert spans(self.client.get("/people/hang-zhu/").content.decode())
        assert spans(self.client.get("/").content.decode())
