"""From pasted identifiers or an uploaded export to the entries a BibTeX review takes.

`gather()` asks each service through a `Fetch` (fetching.py) and `read_export()` reads a file
a service exported; both answer with a Bibliography, so the admin and `manage.py import_works`
hand it to the same review and import as an uploaded .bib file.
"""

import time
import urllib.parse
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar
from xml.etree.ElementTree import Element

from publications.bibtex.limits import MAX_ENTRIES
from publications.bibtex.reading import Bibliography, Problem
from publications.identifiers import arxiv, crossref, dblp, openalex, orcid
from publications.identifiers.documents import (
    Unreadable,
    dig,
    items,
    parse_json,
    parse_xml,
    text,
)
from publications.identifiers.fetching import (
    PASTE_SECONDS,
    Fetch,
    FetchFailed,
    service_url,
    within,
)
from publications.identifiers.pasted import Identifier, Kind
from publications.identifiers.works import Work, entries

# How long one paste may spend asking the services, in all (fetching.PASTE_SECONDS).
TOTAL_SECONDS = PASTE_SECONDS
# arXiv ids per request (arXiv's guide asks for modest batches).
ARXIV_BATCH = 50
# OpenAlex works per page, and pages read for one author at most (10,000 works).
OPENALEX_PAGE = 200
OPENALEX_MAX_PAGES = 50

Record = TypeVar("Record")


class Cut(Exception):
    """A line read in many requests (an author's works), stopped at the paste's deadline: the
    works read before it are kept, and the sentence says which part was not read."""

    def __init__(self, works: list[Work], *, unread: str, service: str) -> None:
        super().__init__(
            f"cut after {len(works):,} work{'s' if len(works) != 1 else ''}, as asking took "
            f"longer than the time a paste may take: {unread} were not read. The works read are "
            f"in the review; for the rest, upload the list of works {service} exports for this "
            "author."
        )
        self.works = works


class Gathered:
    """Works found so far, and a sentence for each identifier that gave none."""

    def __init__(self) -> None:
        self.works: list[Work] = []
        self.problems: list[str] = []
        # Those of the problems that say a line was not asked (or stopped) as time was up.
        self.late: list[str] = []

    @property
    def only_late(self) -> bool:
        """Every problem is a line not asked in time: what was fetched can be reviewed, and
        the editor pastes those lines again."""
        return bool(self.problems) and len(self.late) == len(self.problems)

    def add_problem(self, problem: str, *, late: bool = False) -> None:
        self.problems.append(problem)
        if late:
            self.late.append(problem)

    def bibliography(self) -> Bibliography:
        return Bibliography(entries=tuple(entries(self.works)), problems=())


def gather(
    identifiers: Iterable[Identifier], *, fetch: Fetch, seconds: float | None = None
) -> Gathered:
    """Every work each identifier names, asked of its service. An identifier the service does
    not know, or a service that does not answer, is a sentence in `problems`; so is each one
    not asked once `seconds` have gone by (the admin waits for all of them in one request),
    and so is one whose many requests (an author's pages of works) run past them: the works it
    read before are kept (Cut). `seconds` may be math.inf (the command line: no deadline)."""
    gathered = Gathered()
    identifiers = list(identifiers)
    seconds = TOTAL_SECONDS if seconds is None else seconds
    deadline = time.monotonic() + seconds
    fetch = within(
        fetch,
        seconds=seconds,
        message=f"stopped: asking took more than {seconds:g} seconds in all. Paste this line "
        "and those after it in a second round.",
    )
    arxiv_ids = [found for found in identifiers if found.kind is Kind.ARXIV]
    for start in range(0, len(arxiv_ids), ARXIV_BATCH):
        _gather_arxiv(arxiv_ids[start : start + ARXIV_BATCH], fetch=fetch, into=gathered)
    for identifier in identifiers:
        reader = READERS.get(identifier.kind)
        if reader is None:
            continue
        if time.monotonic() > deadline:
            gathered.add_problem(
                f"Line {identifier.line}: not asked: the lines above took more than "
                f"{seconds:g} seconds. Paste this line and those after it in a second round.",
                late=True,
            )
            continue
        try:
            gathered.works += reader(identifier, fetch)
        except Cut as cut:
            gathered.works += cut.works
            gathered.add_problem(f"Line {identifier.line}: {cut}", late=True)
        except FetchFailed as failed:
            if failed.not_found:
                gathered.problems.append(
                    f"Line {identifier.line}: no {identifier.kind} “{identifier.value}” was "
                    "found. Check it, or add the paper by hand."
                )
            else:
                gathered.add_problem(f"Line {identifier.line}: {failed}", late=failed.late)
        except Unreadable as unreadable:
            gathered.problems.append(f"Line {identifier.line}: {unreadable}")
    return gathered


def _quoted(value: str) -> str:
    return urllib.parse.quote(value, safe="")


def _doi(identifier: Identifier, fetch: Fetch) -> list[Work]:
    url = f"{service_url('crossref')}/works/{_quoted(identifier.value)}"
    document = parse_json(fetch(url), what="Crossref's answer")
    return _read(crossref.works(document), crossref.read_work, line=identifier.line)


def _orcid(identifier: Identifier, fetch: Fetch) -> list[Work]:
    """The summary lists the works; their full records name the authors."""
    base = f"{service_url('orcid')}/{identifier.value}"
    summary = parse_json(fetch(f"{base}/works"), what="ORCID's answer")
    codes = orcid.put_codes(summary)
    full: list[Any] = []
    for start in range(0, len(codes), orcid.BULK_SIZE):
        batch = ",".join(codes[start : start + orcid.BULK_SIZE])
        answer = _fetch_or_cut(
            fetch,
            f"{base}/works/{batch}",
            kept=_Kept(full, orcid.read_work, line=identifier.line, service="ORCID"),
            unread=f"the last {len(codes) - start:,} of the {len(codes):,} works it lists",
        )
        full += orcid.works(parse_json(answer, what="ORCID's answer"))
    found = {text(work, "put-code") for work in full}
    # A work whose full record did not come back is read from its summary, without authors.
    full += [work for work in orcid.works(summary) if text(work, "put-code") not in found]
    return _read(full, orcid.read_work, line=identifier.line)


@dataclass(frozen=True)
class _Kept:
    """The records a line read so far, and how to read them as works."""

    records: list[Any]
    reader: Callable[..., Work]
    line: int
    service: str


def _fetch_or_cut(fetch: Fetch, url: str, *, kept: _Kept, unread: str) -> bytes:
    """`fetch(url)`, one of a line's many requests: Cut, keeping the records read, when the
    paste's deadline stops it after some were read."""
    try:
        return fetch(url)
    except FetchFailed as failed:
        if not (failed.late and kept.records):
            raise
        works = _read(kept.records, kept.reader, line=kept.line)
        raise Cut(works, unread=unread, service=kept.service) from None


def _dblp(identifier: Identifier, fetch: Fetch) -> list[Work]:
    url = f"{service_url('dblp')}/pid/{identifier.value}.xml"
    root = parse_xml(fetch(url), what="dblp's answer")
    return _read(dblp.records(root), dblp.read_record, line=identifier.line)


def _openalex_author(identifier: Identifier, fetch: Fetch) -> list[Work]:
    found: list[Any] = []
    cursor = "*"
    for number in range(OPENALEX_MAX_PAGES):
        query = urllib.parse.urlencode(
            {"filter": f"author.id:{identifier.value}", "per-page": OPENALEX_PAGE, "cursor": cursor}
        )
        answer = _fetch_or_cut(
            fetch,
            f"{service_url('openalex')}/works?{query}",
            kept=_Kept(found, openalex.read_work, line=identifier.line, service="OpenAlex"),
            unread=f"OpenAlex's pages of works after page {number}",
        )
        page = parse_json(answer, what="OpenAlex's answer")
        results = items(page, "results")
        found += results
        cursor = text(page, "meta", "next_cursor")
        if not results or not cursor:
            break
    if not found:
        raise FetchFailed("", not_found=True)
    return _read(found, openalex.read_work, line=identifier.line)


def _openalex_work(identifier: Identifier, fetch: Fetch) -> list[Work]:
    url = f"{service_url('openalex')}/works/{identifier.value}"
    document = parse_json(fetch(url), what="OpenAlex's answer")
    return _read(openalex.works(document), openalex.read_work, line=identifier.line)


READERS: dict[Kind, Callable[[Identifier, Fetch], list[Work]]] = {
    Kind.DOI: _doi,
    Kind.ORCID: _orcid,
    Kind.DBLP: _dblp,
    Kind.OPENALEX_AUTHOR: _openalex_author,
    Kind.OPENALEX_WORK: _openalex_work,
}


def _gather_arxiv(batch: list[Identifier], *, fetch: Fetch, into: Gathered) -> None:
    query = urllib.parse.urlencode(
        {"id_list": ",".join(found.value for found in batch), "max_results": len(batch)}
    )
    lines = ", ".join(str(found.line) for found in batch)
    try:
        root = parse_xml(fetch(f"{service_url('arxiv')}/query?{query}"), what="arXiv's answer")
    except (FetchFailed, Unreadable) as failed:
        message = str(failed)
        if isinstance(failed, FetchFailed) and failed.not_found:
            message = "arXiv knows none of these ids. Check them."
        late = isinstance(failed, FetchFailed) and failed.late
        into.add_problem(f"Line{'s' if len(batch) > 1 else ''} {lines}: {message}", late=late)
        return
    by_id = {found.value.casefold(): found for found in batch}
    answered = set()
    for entry in arxiv.entries(root):
        if message := arxiv.error(entry):
            into.problems.append(f"arXiv: {message}")
            continue
        work = arxiv.read_entry(entry)
        asked = by_id.get(work.arxiv_id.casefold())
        if asked is None or not work.title:
            continue
        work.line = asked.line
        answered.add(work.arxiv_id.casefold())
        into.works.append(work)
    for found in batch:
        if found.value.casefold() not in answered and not any(
            found.value in problem for problem in into.problems
        ):
            into.problems.append(
                f"Line {found.line}: no arXiv id “{found.value}” was found. Check it, or add "
                "the paper by hand."
            )


def _read(records: Iterable[Record], reader: Callable[..., Work], *, line: int = 0) -> list[Work]:
    return [reader(record, line=line) for record in records if record is not None]


# Uploaded exports ---------------------------------------------------------------------------

FORMATS = (
    "Crossref or OpenAlex JSON, ORCID works JSON (summary or full works), dblp XML or arXiv's Atom"
)


def read_export(data: bytes, *, name: str = "The file") -> Bibliography:
    """The works in a file a service exported, its format told from its content. Unreadable
    when it is none of FORMATS, or broken."""
    start = data.lstrip()[:1]
    if start.startswith(b"\xef") or start in (b"{", b"["):
        return _read_json(parse_json(data, what=name), name=name)
    if start == b"<":
        return _read_xml(parse_xml(data, what=name), name=name)
    raise Unreadable(f"{name} is not JSON or XML. Upload one of: {FORMATS}.")


def _read_json(document: Any, *, name: str) -> Bibliography:
    gathered = Gathered()
    if openalex.is_openalex(document):
        gathered.works = _read(openalex.works(document), openalex.read_work)
    elif orcid.is_orcid(document):
        gathered.works = _read(orcid.works(document), orcid.read_work)
    elif crossref.is_crossref(document):
        gathered.works = _read(crossref.works(document), crossref.read_work)
    else:
        raise Unreadable(f"{name} is JSON, but not an export this site reads: {FORMATS}.")
    if dig(document, "status") not in (None, "ok") and not gathered.works:
        raise Unreadable(f"{name} is an error message from the service, not a list of works.")
    return _bibliography(gathered, name=name)


def _read_xml(root: Element, *, name: str) -> Bibliography:
    gathered = Gathered()
    if dblp.is_dblp(root):
        gathered.works = _read(dblp.records(root), dblp.read_record)
    elif arxiv.is_arxiv(root):
        problems = [message for entry in arxiv.entries(root) if (message := arxiv.error(entry))]
        if problems:
            raise Unreadable(f"{name} is arXiv's answer to an id it could not read: {problems[0]}")
        gathered.works = _read(arxiv.entries(root), arxiv.read_entry)
    else:
        raise Unreadable(f"{name} is XML, but not an export this site reads: {FORMATS}.")
    return _bibliography(gathered, name=name)


def _bibliography(gathered: Gathered, *, name: str) -> Bibliography:
    if len(gathered.works) > MAX_ENTRIES:
        raise Unreadable(
            f"{name} lists {len(gathered.works):,} works; an import reads at most "
            f"{MAX_ENTRIES:,}. Split it."
        )
    if not gathered.works:
        return Bibliography(entries=(), problems=(Problem(None, "", f"{name} lists no works."),))
    return gathered.bibliography()
