"""Datasets and software fetched by DOI: each DOI's record from DataCite's REST API
(`/dois/<doi>`), gathered into one DataCite document that the import reviews as it reviews an
uploaded file (outputs/formats.py, outputs/importing.py).

Zenodo registers its DOIs (10.5281/zenodo.N) with DataCite, so one service answers for both.
The request is the paper import's (publications/identifiers/fetching.py): only when the
operator has turned IDENTIFIER_FETCHING on, with its time-out, size bound and polite
User-Agent; the tests answer from tests/data/identifiers on 127.0.0.1.
"""

import json
import re
import time
import urllib.parse
from collections.abc import Sequence
from dataclasses import dataclass

from base.identifiers import DOI_EXAMPLE, DOI_PATTERN, normalize_doi
from publications.identifiers.documents import Unreadable, dig, parse_json
from publications.identifiers.fetching import (
    PASTE_SECONDS,
    Fetch,
    FetchFailed,
    default_fetch,
    fetching_off,
    service_url,
)

# Each DOI is a request to DataCite while the editor waits: a lab adds a few at a time.
MAX_DOIS = 50
# How long one paste may spend asking DataCite, in all, as a paste of papers' identifiers: a DOI
# is not asked once it has gone by, so the editor waits at most this and one request's time-out
# (fetching.MAX_TIMEOUT_SECONDS), not 50 time-outs.
TOTAL_SECONDS = PASTE_SECONDS
# The name the review gives the gathered records, in a sentence ("… is N bytes, larger …").
FETCHED = "The records fetched from DataCite"


def dois_in(text: str) -> list[str]:
    """The DOIs pasted, one a line or apart by spaces or commas, each once, as DOIs are stored
    ("https://doi.org/10.…" and "doi:10.…" read as "10.…"). Unreadable with a sentence for
    anything that is not a DOI, or too many of them."""
    found: list[str] = []
    refused: list[str] = []
    for piece in re.split(r"[\s,;]+", text.strip()):
        if not piece:
            continue
        doi = normalize_doi(piece)
        if not DOI_PATTERN.match(doi):
            refused.append(f"“{piece[:100]}”")
        elif doi.lower() not in (known.lower() for known in found):
            found.append(doi)
    if refused:
        raise Unreadable(
            f"Not a DOI: {', '.join(refused)}. A DOI starts with “10.”, a number and a slash, "
            f"e.g. “{DOI_EXAMPLE}” or “10.5281/zenodo.1234567”."
        )
    if not found:
        raise Unreadable("Paste at least one DOI.")
    if len(found) > MAX_DOIS:
        raise Unreadable(
            f"{len(found):,} DOIs were pasted; an import fetches at most {MAX_DOIS} at a time."
        )
    return found


@dataclass(frozen=True)
class Fetched:
    """The records fetched, as one DataCite document, and the DOIs not asked in time."""

    data: bytes
    late: tuple[str, ...] = ()

    def late_sentence(self) -> str:
        """What the editor reads about the DOIs left out; "" when every DOI was fetched."""
        if not self.late:
            return ""
        return (
            f"Not fetched in time, paste them again: {', '.join(self.late)}. DataCite took more "
            f"than {TOTAL_SECONDS} seconds for the DOIs above them; the review shows only the "
            "records fetched."
        )


def fetch_records(
    dois: Sequence[str], *, fetch: Fetch | None = None, seconds: float | None = None
) -> Fetched:
    """One DataCite document ({"data": [record, …]}) holding each DOI's record, in the order
    given. Unreadable with a sentence for each DOI DataCite does not know or could not give
    (a time-out, an error, an answer that is not a DataCite record): none is reviewed then.
    The DOIs still unasked once `seconds` (TOTAL_SECONDS) have gone by, and one that timed out
    past them, are `late`: the editor pastes them again, and what was fetched is reviewed."""
    fetch = fetch or default_fetch()
    deadline = time.monotonic() + (TOTAL_SECONDS if seconds is None else seconds)
    records: list[object] = []
    problems: list[str] = []
    late: list[str] = []
    for doi in dois:
        if time.monotonic() > deadline:
            late.append(doi)
            continue
        url = f"{service_url('datacite')}/dois/{urllib.parse.quote(doi, safe='/')}"
        try:
            document = parse_json(fetch(url), what=f"DataCite's answer for {doi}")
        except FetchFailed as failed:
            if fetch is fetching_off:  # said once, not once a DOI
                raise Unreadable(str(failed)) from None
            if failed.timed_out and time.monotonic() > deadline:
                # Cut by the paste's deadline while asked: pasted again as those not asked.
                late.append(doi)
                continue
            problems.append(
                f"DataCite knows no DOI {doi}." if failed.not_found else f"{doi}: {failed}"
            )
            continue
        except Unreadable as unreadable:
            problems.append(str(unreadable))
            continue
        record = dig(document, "data")
        if not isinstance(dig(record, "attributes"), dict):
            problems.append(f"DataCite's answer for {doi} is not a DataCite record.")
            continue
        records.append(record)
    if problems:
        raise Unreadable(" ".join([*problems, "Nothing was fetched for review."]))
    data = json.dumps({"data": records}, ensure_ascii=False).encode()
    return Fetched(data=data, late=tuple(late))
