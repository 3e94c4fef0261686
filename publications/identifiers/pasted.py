"""Identifiers pasted one a line, each recognised or refused with a sentence."""

import re
from dataclasses import dataclass
from enum import StrEnum

from django.core.exceptions import ValidationError

from base.identifiers import (
    ARXIV_ID,
    ARXIV_IN_URL,
    DOI_PATTERN,
    ORCID_PATTERN,
    arxiv_id,
    normalize_doi,
    normalize_orcid,
    validate_orcid,
)

# A paste names at most this many identifiers: each is a request to a service.
MAX_IDENTIFIERS = 200

OPENALEX = re.compile(
    r"^(?:https?://(?:api\.)?openalex\.org/(?:authors/|works/)?)?([AW]\d{4,12})$", re.I
)
# "s/MichaelStonebraker", "61/6590", "133/8283-1", "homepages/s/MichaelStonebraker", or the
# person page's address on dblp.org.
DBLP = re.compile(
    r"^(?:https?://dblp\.(?:org|uni-trier\.de)/pid/)?(?:homepages/)?"
    r"(?P<pid>[a-z0-9]{1,4}/[\w:=-]{1,80}?)(?:\.html|\.xml)?$",
    re.I,
)


class Kind(StrEnum):
    DOI = "DOI"
    ARXIV = "arXiv id"
    ORCID = "ORCID iD"
    DBLP = "dblp person key"
    OPENALEX_AUTHOR = "OpenAlex author id"
    OPENALEX_WORK = "OpenAlex work id"


@dataclass(frozen=True)
class Identifier:
    kind: Kind
    value: str
    line: int


def recognise(text: str) -> tuple[list[Identifier], list[str]]:
    """Each non-empty line as an identifier, or a sentence saying why it is not one."""
    found: list[Identifier] = []
    refused: list[str] = []
    seen: set[tuple[Kind, str]] = set()
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        identifier, why = _one(line, number)
        if identifier is None:
            refused.append(f"Line {number}: {why}")
        elif (identifier.kind, identifier.value.casefold()) not in seen:
            seen.add((identifier.kind, identifier.value.casefold()))
            found.append(identifier)
    if len(found) > MAX_IDENTIFIERS:
        refused.append(
            f"There are {len(found)} identifiers; at most {MAX_IDENTIFIERS} are read at once. "
            "Paste the rest in a second round."
        )
    return found, refused


def _one(line: str, number: int) -> tuple[Identifier | None, str]:
    shown = line if len(line) <= 80 else line[:77] + "…"
    if ARXIV_ID.match(line) or ARXIV_IN_URL.search(line):
        return Identifier(Kind.ARXIV, arxiv_id(line), number), ""
    doi = normalize_doi(line)
    if DOI_PATTERN.match(doi):
        return Identifier(Kind.DOI, doi, number), ""
    orcid = normalize_orcid(line)
    if ORCID_PATTERN.match(orcid):
        try:
            validate_orcid(orcid)
        except ValidationError as error:
            return None, " ".join(error.messages)
        return Identifier(Kind.ORCID, orcid, number), ""
    if found := OPENALEX.match(line):
        value = found[1].upper()
        kind = Kind.OPENALEX_AUTHOR if value.startswith("A") else Kind.OPENALEX_WORK
        return Identifier(kind, value, number), ""
    if found := DBLP.match(line):
        return Identifier(Kind.DBLP, found["pid"], number), ""
    return None, (
        f"“{shown}” is not a DOI, an arXiv id, an ORCID iD, a dblp person key or an OpenAlex "
        "author id. Write one a line, e.g. 10.1145/3544216.3544265, 2101.00001, "
        "0000-0002-1825-0097, s/MichaelStonebraker or A5023888391."
    )
