"""ORCID's public API, v3.0: a record's works summary (`/v3.0/{orcid}/works`: "group", each
with its "work-summary"), and works in full (`/v3.0/{orcid}/works/{put-codes}`: "bulk", or one
work), as the schema at https://github.com/ORCID/orcid-model (record_3.0) describes them.

A summary names no authors: the full works do, when the member entered them. Fetching reads
the summary, then the full works in batches of BULK_SIZE (gathering.py).
"""

from typing import Any

from base.identifiers import arxiv_id
from publications.identifiers.documents import dig, items, text
from publications.identifiers.works import Author, Work, year_of

SOURCE = "ORCID"
# The most put-codes one request for full works may name (ORCID's limit).
BULK_SIZE = 100

ENTRY_TYPES = {
    "journal-article": "article",
    "conference-paper": "inproceedings",
    "conference-proceedings": "inproceedings",
    "preprint": "unpublished",
    "working-paper": "unpublished",
    "book-chapter": "incollection",
    "dissertation": "phdthesis",
    "dissertation-thesis": "phdthesis",
    "book": "book",
    "report": "techreport",
}


def is_summary(document: Any) -> bool:
    return isinstance(document, dict) and "group" in document


def is_orcid(document: Any) -> bool:
    return is_summary(document) or (
        isinstance(document, dict) and ("bulk" in document or "put-code" in document)
    )


def put_codes(summary: Any) -> list[str]:
    """The put-code of each work the record lists, its preferred version (the first)."""
    codes = []
    for group in items(summary, "group"):
        if code := text(group, "work-summary", 0, "put-code"):
            codes.append(code)
    return codes


def works(document: Any) -> list[Any]:
    """The works of a summary (each group's first version), of a bulk answer, or one work."""
    if is_summary(document):
        return [dig(group, "work-summary", 0) for group in items(document, "group")]
    if isinstance(document, dict) and "bulk" in document:
        return [dig(item, "work") for item in items(document, "bulk") if dig(item, "work")]
    return [document]


def read_work(work: Any, *, line: int = 0) -> Work:
    identifiers = {
        text(found, "external-id-type").casefold(): text(found, "external-id-value")
        for found in items(work, "external-ids", "external-id")
        if text(found, "external-id-relationship") in ("self", "")
    }
    entry_type = ENTRY_TYPES.get(text(work, "type"), "misc")
    found_arxiv = arxiv_id(identifiers.get("arxiv", ""))
    url = text(work, "url", "value")
    found_arxiv = found_arxiv or arxiv_id(url)
    contributors = [
        contributor
        for contributor in items(work, "contributors", "contributor")
        if text(contributor, "contributor-attributes", "contributor-role") in ("author", "")
    ]
    return Work(
        source=SOURCE,
        entry_type=entry_type,
        title=": ".join(
            part
            for part in (
                text(work, "title", "title", "value"),
                text(work, "title", "subtitle", "value"),
            )
            if part
        ),
        authors=[
            Author(
                name=text(contributor, "credit-name", "value"),
                orcid=text(contributor, "contributor-orcid", "path"),
            )
            for contributor in contributors
        ],
        year=year_of(text(work, "publication-date", "year", "value")),
        venue=text(work, "journal-title", "value") or ("arXiv" if found_arxiv else ""),
        doi=identifiers.get("doi", ""),
        arxiv_id=found_arxiv,
        url="" if arxiv_id(url) or "doi.org/" in url else url,
        abstract=text(work, "short-description"),
        line=line,
        record=f"orcid-work-{text(work, 'put-code')}" if text(work, "put-code") else "",
    )
