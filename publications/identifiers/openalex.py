"""OpenAlex's API: a work (`/works/W…`) or a page of works (`/works?filter=author.id:A…`, with
"meta" and "results"), as documented at https://docs.openalex.org/api-entities/works."""

from typing import Any

from base.identifiers import arxiv_id
from publications.identifiers.documents import dig, items, text
from publications.identifiers.works import Author, Work, year_of

SOURCE = "OpenAlex"
WORK_ID_PREFIX = "https://openalex.org/W"

# OpenAlex's Crossref-derived type first: it tells a proceedings paper from a journal article.
CROSSREF_TYPES = {
    "journal-article": "article",
    "proceedings-article": "inproceedings",
    "posted-content": "unpublished",
    "book-chapter": "incollection",
    "dissertation": "phdthesis",
    "book": "book",
    "report": "techreport",
}
TYPES = {
    "preprint": "unpublished",
    "book-chapter": "incollection",
    "dissertation": "phdthesis",
    "book": "book",
    "report": "techreport",
}
# An "article" is a journal's, a conference's or a repository's, as its source says.
ARTICLE_BY_SOURCE_TYPE = {
    "journal": "article",
    "conference": "inproceedings",
    "repository": "unpublished",
}


def is_openalex(document: Any) -> bool:
    if isinstance(document, dict) and "results" in document:
        return all(map(is_openalex, items(document, "results")))
    return isinstance(document, dict) and text(document, "id").startswith(WORK_ID_PREFIX)


def works(document: Any) -> list[Any]:
    if isinstance(document, dict) and "results" in document:
        return items(document, "results")
    return [document]


def read_work(work: Any, *, line: int = 0) -> Work:
    location = dig(work, "primary_location") or {}
    source_type = text(location, "source", "type")
    entry_type = (
        CROSSREF_TYPES.get(text(work, "type_crossref"))
        or TYPES.get(text(work, "type"))
        or ARTICLE_BY_SOURCE_TYPE.get(source_type, "misc")
    )
    locations = [location, dig(work, "best_oa_location"), *items(work, "locations")]
    found_arxiv = next(
        (
            found
            for place in locations
            for address in (text(place, "landing_page_url"), text(place, "pdf_url"))
            if (found := arxiv_id(address))
        ),
        "",
    )
    doi = text(work, "doi") or text(work, "ids", "doi")
    if arxiv_id(doi):  # arXiv's own DOI names the preprint, which its arXiv id links
        found_arxiv, doi = found_arxiv or arxiv_id(doi), ""
    venue = text(location, "source", "display_name")
    if found_arxiv and entry_type == "unpublished":
        venue = "arXiv"
    return Work(
        source=SOURCE,
        entry_type=entry_type,
        title=text(work, "title") or text(work, "display_name"),
        authors=[
            Author(
                name=text(authorship, "author", "display_name")
                or text(authorship, "raw_author_name"),
                orcid=text(authorship, "author", "orcid"),
            )
            for authorship in items(work, "authorships")
        ],
        year=year_of(text(work, "publication_year") or text(work, "publication_date")),
        venue=venue,
        doi=doi,
        arxiv_id=found_arxiv,
        pdf_url=next((found for place in locations if (found := text(place, "pdf_url"))), ""),
        abstract=_abstract(dig(work, "abstract_inverted_index")),
        line=line,
        record=text(work, "id").removeprefix("https://openalex.org/"),
    )


def _abstract(inverted: Any) -> str:
    """OpenAlex keeps an abstract as each word's positions; the words put back in order."""
    if not isinstance(inverted, dict):
        return ""
    placed: dict[int, str] = {}
    for word, positions in inverted.items():
        if isinstance(positions, list):
            for position in positions:
                if isinstance(position, int) and 0 <= position < 100_000:
                    placed[position] = str(word)
    return " ".join(placed[position] for position in sorted(placed))
