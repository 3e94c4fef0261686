"""A work as a service describes it, turned into the entry a BibTeX review takes.

Every reader (crossref.py, openalex.py, orcid.py, dblp.py, arxiv.py) fills a `Work`; `entries()`
turns a batch of them into `BibEntry`s with unique keys, checked as reading.py checks an entry
of a .bib file, so the review, the import and its jobs never know where an entry came from.
"""

import html
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from django.core.exceptions import ValidationError

from base.identifiers import clean_orcid, normalize_doi
from publications.bibtex.reading import (
    DOI_MAX,
    NAME_MAX,
    TITLE_MAX,
    BibEntry,
    _is_web_address,
    _validation_problems,
)

MARKUP = re.compile(r"<[^>]*>")


def plain_text(text: str) -> str:
    """Crossref's titles and abstracts carry JATS and HTML ("<i>", "<jats:p>"), OpenAlex's and
    arXiv's entities: the text alone, spaces collapsed."""
    return " ".join(html.unescape(MARKUP.sub(" ", text)).split())


@dataclass
class Author:
    name: str
    orcid: str = ""


@dataclass
class Work:
    """What one record of a service says, in BibTeX's terms: `entry_type` is the BibTeX type
    (article, inproceedings, phdthesis, incollection, unpublished…) the review maps to a
    publication type, `venue` the journal, proceedings or school as the service names it."""

    source: str  # "Crossref", "arXiv"…: named in messages
    entry_type: str
    title: str
    authors: list[Author] = field(default_factory=list)
    year: int | None = None
    venue: str = ""
    doi: str = ""
    arxiv_id: str = ""
    url: str = ""
    pdf_url: str = ""
    abstract: str = ""
    note: str = ""
    # A book's or chapter's publisher (a journal's is not kept: its venue says it).
    publisher: str = ""
    # Where it was asked for: the pasted line, or 0 for a record of an uploaded file.
    line: int = 0
    # The service's own name for the record, for its key when it has no DOI or arXiv id.
    record: str = ""
    warnings: list[str] = field(default_factory=list)


def entries(works: Iterable[Work]) -> list[BibEntry]:
    """Entries keyed by DOI, else arXiv id, else the service's record: a key appears once."""
    taken: set[str] = set()
    made = []
    for number, work in enumerate(works, start=1):
        doi = normalize_doi(work.doi)
        base = doi or (f"arXiv:{work.arxiv_id}" if work.arxiv_id else "") or work.record
        base = base or f"{work.source.lower()}-{number}"
        key, suffix = base, 2
        while key.casefold() in taken:
            key, suffix = f"{base}-{suffix}", suffix + 1
        taken.add(key.casefold())
        made.append(entry(work, key=key))
    return made


def entry(work: Work, *, key: str) -> BibEntry:
    title = plain_text(work.title).rstrip()
    problems: list[str] = []
    warnings = list(work.warnings)
    if not title:
        problems.append(f"{work.source} gives it no title.")
    elif len(title) > TITLE_MAX:
        problems.append(f"the title is longer than {TITLE_MAX} characters.")
    names = [" ".join(author.name.split()) for author in work.authors]
    for name in names:
        if len(name) > NAME_MAX:
            problems.append(f"the author name “{name[:40]}…” is longer than {NAME_MAX} characters.")
    if not any(names):
        warnings.append("has no authors.")
    doi = normalize_doi(work.doi)
    if len(doi) > DOI_MAX:
        problems.append(f"the DOI is longer than {DOI_MAX} characters.")
    url, pdf_url = work.url.strip(), work.pdf_url.strip()
    if url and not _is_web_address(url):
        warnings.append(f"the URL “{url[:60]}” is not a web address and is left out.")
        url = ""
    if pdf_url and not _is_web_address(pdf_url):
        pdf_url = ""
    made = BibEntry(
        key=key,
        line=work.line,
        entry_type=work.entry_type,
        title=title,
        authors=tuple(name for name in names if name),
        more_authors=False,
        year=work.year,
        venue=" ".join(plain_text(work.venue).split()),
        doi=doi,
        url=url,
        abstract=plain_text(work.abstract),
        note=work.note,
        eprint_type="arXiv" if work.arxiv_id and work.entry_type == "unpublished" else "",
        publisher=" ".join(plain_text(work.publisher).split()),
        problems=tuple(problems),
        warnings=tuple(warnings),
        arxiv_id=work.arxiv_id,
        pdf_url=pdf_url,
        orcids=tuple(_orcid(author.orcid) for author in work.authors if author.name.strip()),
    )
    if made.problems:
        return made
    return replace(made, problems=_validation_problems(made))


def _orcid(text: str) -> str:
    """An author's ORCID iD as the service wrote it, when it is one; "" otherwise."""
    try:
        return clean_orcid(text)
    except ValidationError:
        return ""


def year_of(value: object) -> int | None:
    """A year from a number or text such as "2022" or "2022-05-01"; None when it is none."""
    text = str(value).strip() if value is not None else ""
    found = re.match(r"(\d{4})", text)
    if not found:
        return None
    year = int(found[1])
    return year if 1000 <= year <= 2999 else None
