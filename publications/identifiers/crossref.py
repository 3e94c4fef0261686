"""Crossref's REST API: a work (`/works/{doi}`, "message-type": "work") or a list of them
("work-list", or a JSON array of work messages), as documented at
https://api.crossref.org/swagger-ui/index.html and in Crossref's REST API schema."""

from typing import Any

from base.identifiers import arxiv_id
from publications.identifiers.documents import dig, items, text
from publications.identifiers.works import Author, Work, year_of

SOURCE = "Crossref"

# Crossref's work types as BibTeX's entry types; the review maps these to publication types.
ENTRY_TYPES = {
    "journal-article": "article",
    "proceedings-article": "inproceedings",
    "posted-content": "unpublished",
    "book-chapter": "incollection",
    "book-section": "incollection",
    "book-part": "incollection",
    "reference-entry": "incollection",
    "dissertation": "phdthesis",
    "book": "book",
    "monograph": "book",
    "edited-book": "book",
    "report": "techreport",
}
DATE_FIELDS = ("issued", "published", "published-print", "published-online", "created")


def is_crossref(document: Any) -> bool:
    if isinstance(document, dict):
        return str(document.get("message-type", "")).startswith("work") or "DOI" in document
    return isinstance(document, list) and bool(document) and all(map(is_crossref, document))


def works(document: Any) -> list[Any]:
    """The work messages in an answer or an uploaded file."""
    if isinstance(document, list):
        return [message for item in document for message in works(item)]
    if dig(document, "message-type") == "work-list":
        return items(document, "message", "items")
    if dig(document, "message-type") == "work":
        return [dig(document, "message")]
    return [document]


# Entry types whose publisher a citation names (BibTeX requires it of a chapter or a book).
BOOK_TYPES = frozenset({"incollection", "inbook", "book"})


def read_work(message: Any, *, line: int = 0) -> Work:
    entry_type = ENTRY_TYPES.get(text(message, "type"), "misc")
    doi = text(message, "DOI")
    venue = text(message, "container-title", 0)
    if entry_type == "phdthesis":
        venue = venue or text(message, "institution", 0, "name")
    if entry_type == "inproceedings":
        venue = venue or text(message, "event", "name")
    if entry_type == "unpublished" and not venue:
        venue = text(message, "institution", 0, "name") or text(message, "publisher")
    pdf_url = next(
        (
            text(link, "URL")
            for link in items(message, "link")
            if text(link, "content-type") == "application/pdf"
            and text(link, "intended-application") != "similarity-checking"
        ),
        "",
    )
    found_arxiv = arxiv_id(doi)
    return Work(
        source=SOURCE,
        entry_type=entry_type,
        title=": ".join(
            part for part in (text(message, "title", 0), text(message, "subtitle", 0)) if part
        ),
        authors=[_author(author) for author in items(message, "author")],
        year=next(
            (
                year
                for name in DATE_FIELDS
                if (year := year_of(text(message, name, "date-parts", 0, 0)))
            ),
            None,
        ),
        venue=venue,
        doi="" if found_arxiv else doi,
        arxiv_id=found_arxiv,
        pdf_url=pdf_url,
        abstract=text(message, "abstract"),
        publisher=text(message, "publisher") if entry_type in BOOK_TYPES else "",
        line=line,
        record=doi,
    )


def _author(author: Any) -> Author:
    name = " ".join(part for part in (text(author, "given"), text(author, "family")) if part)
    return Author(name=name or text(author, "name"), orcid=text(author, "ORCID"))
