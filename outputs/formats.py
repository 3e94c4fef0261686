"""Reading datasets and software from the files their archives give: DataCite's REST API JSON
(`data.attributes`), Zenodo's records API JSON (`metadata`) and GitHub's CITATION.cff (YAML,
format 1.2.0). Each is read into the same `ReadOutput`; outputs/importing.py reviews and saves.

The file is an upload, untrusted: it is refused whole, with a sentence, when it is larger than
MAX_FILE_BYTES, neither JSON nor YAML, of another shape, holds more than MAX_RECORDS records or
a record with more than MAX_CREATORS creators or more than MAX_FILE_CREATORS in all, or is YAML with anchors and aliases (a "billion
laughs" bomb expands them; a CITATION.cff has no need of them).
"""

import codecs
import datetime
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import yaml
from django.utils.html import strip_tags

from base.identifiers import normalize_doi, normalize_orcid
from publications.identifiers.documents import Unreadable, dig, items, parse_json, text

# A DataCite or Zenodo record is a few kilobytes, a CITATION.cff less: a lab's whole list of
# datasets and software fits many times over. The admin's review sends the file back with its
# confirmation, in base64 (a third larger): 1 MB stays under Django's 2.5 MB limit on a form's
# body (DATA_UPLOAD_MAX_MEMORY_SIZE).
MAX_FILE_BYTES = 1024 * 1024
MAX_RECORDS = 500
MAX_CREATORS = 500
# Creators in the whole file: each is matched to the researchers at the review, so 500 records
# of 500 creators each would be a quarter of a million matches; a lab's file names far fewer.
MAX_FILE_CREATORS = 5000

# The relations by which a record names a paper it belongs to (DataCite's relationType,
# Zenodo's relation, compared without case). Version relations (IsVersionOf, IsNewVersionOf...)
# name other releases of the record itself, never a paper.
PAPER_RELATIONS = {
    "issupplementto",
    "iscitedby",
    "isreferencedby",
    "isdocumentedby",
    "isdescribedby",
    "cites",
    "references",
}

KINDS = {"dataset": "dataset", "software": "software"}


@dataclass(frozen=True)
class Creator:
    name: str
    orcid: str = ""
    affiliation: str = ""


@dataclass(frozen=True)
class ReadOutput:
    """One dataset or piece of software as the file describes it; `problems` say why it cannot
    be imported as it stands. `number` is its place in the file, from 1."""

    number: int
    source: str
    kind: str
    title: str
    creators: tuple[Creator, ...] = ()
    version: str = ""
    licence: str = ""
    url: str = ""
    doi: str = ""
    released: str = ""
    description: str = ""
    paper_dois: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()


def read_outputs(data: bytes, *, name: str = "The file") -> list[ReadOutput]:
    """Every record of a DataCite, Zenodo or CITATION.cff file, in file order; Unreadable with a
    sentence for a file that is none of them or is out of bounds."""
    if len(data) > MAX_FILE_BYTES:
        raise Unreadable(too_large(len(data), name=name))
    # A JSON file saved with a byte order mark is JSON all the same (parse_json reads past it).
    if data.removeprefix(codecs.BOM_UTF8).lstrip()[:1] in (b"{", b"["):
        document = parse_json(data, what=name)
        records, reader = _json_records(document, name=name)
    else:
        document = _parse_yaml(data, name=name)
        if not isinstance(document, dict) or "cff-version" not in document:
            raise Unreadable(
                f"{name} is neither DataCite JSON, Zenodo JSON nor a CITATION.cff file "
                "(no “cff-version” line was found)."
            )
        records, reader = [document], _read_cff
    if not records:
        raise Unreadable(f"{name} holds no record of a dataset or software.")
    if len(records) > MAX_RECORDS:
        raise Unreadable(
            f"{name} holds {len(records):,} records; an import reads at most {MAX_RECORDS:,}. "
            "Split it into smaller files."
        )
    read = [reader(record, number) for number, record in enumerate(records, start=1)]
    for output in read:
        if len(output.creators) > MAX_CREATORS:
            raise Unreadable(
                f"Record {output.number} (“{output.title[:80]}”) names "
                f"{len(output.creators):,} creators; an import reads at most {MAX_CREATORS:,} "
                "a record. Nothing was imported."
            )
    creators = sum(len(output.creators) for output in read)
    if creators > MAX_FILE_CREATORS:
        raise Unreadable(
            f"{name} names {creators:,} creators in all; an import reads at most "
            f"{MAX_FILE_CREATORS:,} in one file. Split it into smaller files."
        )
    return read


def too_large(size: int, *, name: str) -> str:
    return (
        f"{name} is {size:,} bytes, larger than {MAX_FILE_BYTES // (1024 * 1024)} MB, the most "
        "an import of datasets and software reads."
    )


Reader = Callable[[Any, int], ReadOutput]


def _json_records(document: Any, *, name: str) -> tuple[list[Any], Reader]:
    if isinstance(document, dict) and "data" in document:
        data = document["data"]
        records = data if isinstance(data, list) else [data]
        if all(isinstance(dig(record, "attributes"), dict) for record in records):
            return records, _read_datacite
    hits = dig(document, "hits", "hits")
    records = hits if isinstance(hits, list) else document
    records = records if isinstance(records, list) else [records]
    if records and all(isinstance(dig(record, "metadata"), dict) for record in records):
        return records, _read_zenodo
    raise Unreadable(
        f"{name} is JSON but neither a DataCite record (“data” → “attributes”) nor a Zenodo "
        "record (“metadata”)."
    )


class _NoAliasLoader(yaml.SafeLoader):
    """PyYAML's safe loader, refusing anchors and aliases before anything is built."""

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            raise _AliasFound
        return super().compose_node(parent, index)


class _AliasFound(Exception):
    pass


def _parse_yaml(data: bytes, *, name: str) -> Any:
    try:
        source = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise Unreadable(f"{name} is not UTF-8 text.") from None
    try:
        return yaml.load(source, Loader=_NoAliasLoader)  # noqa: S506  # a SafeLoader subclass
    except _AliasFound:
        raise Unreadable(
            f"{name} uses YAML anchors and aliases (“&” and “*”), which an import never "
            "expands: write each value out."
        ) from None
    except RecursionError:
        raise Unreadable(f"{name} nests its values too deeply to be read.") from None
    except ValueError:
        # PyYAML builds dates and numbers with Python's own types, which refuse a 13th month
        # or an integer over 4,300 digits with a ValueError rather than a YAMLError.
        raise Unreadable(
            f"{name} holds a value that cannot be read: an impossible date (such as "
            "2024-13-01) or a number thousands of digits long."
        ) from None
    except yaml.YAMLError as error:
        where = getattr(error, "problem_mark", None)
        line = f" (line {where.line + 1})" if where is not None else ""
        raise Unreadable(f"{name} is neither JSON nor valid YAML{line}.") from None


def _read_datacite(record: Any, number: int) -> ReadOutput:
    attributes = dig(record, "attributes")
    general = text(attributes, "types", "resourceTypeGeneral")
    issued = next(
        (
            text(date, "date")
            for date in items(attributes, "dates")
            if text(date, "dateType").casefold() == "issued"
        ),
        "",
    )
    licence = next(
        (
            text(rights, "rightsIdentifier")
            for rights in items(attributes, "rightsList")
            if text(rights, "rightsIdentifierScheme").casefold() == "spdx"
        ),
        "",
    )
    description = next(
        (
            text(entry, "description")
            for entry in items(attributes, "descriptions")
            if text(entry, "descriptionType").casefold() == "abstract"
        ),
        "",
    )
    return _output(
        number=number,
        source="DataCite",
        kind=general,
        title=text(attributes, "titles", 0, "title"),
        creators=tuple(_datacite_creator(creator) for creator in items(attributes, "creators")),
        version=text(attributes, "version"),
        licence=licence,
        url=text(attributes, "url"),
        doi=text(attributes, "doi"),
        released=_date(issued) or text(attributes, "publicationYear"),
        description=description,
        paper_dois=_related_dois(
            items(attributes, "relatedIdentifiers"),
            identifier="relatedIdentifier",
            scheme="relatedIdentifierType",
            relation="relationType",
        ),
    )


def _datacite_creator(creator: Any) -> Creator:
    given, family = text(creator, "givenName"), text(creator, "familyName")
    if given and family:
        name = f"{given} {family}"
    elif text(creator, "nameType") == "Organizational":
        name = text(creator, "name")
    else:
        name = _given_first(text(creator, "name"))
    orcid = next(
        (
            text(identifier, "nameIdentifier")
            for identifier in items(creator, "nameIdentifiers")
            if text(identifier, "nameIdentifierScheme").casefold() == "orcid"
        ),
        "",
    )
    affiliation = dig(creator, "affiliation", 0)
    affiliation_name = affiliation if isinstance(affiliation, str) else text(affiliation, "name")
    return Creator(name=name, orcid=_orcid(orcid), affiliation=affiliation_name.strip())


def _read_zenodo(record: Any, number: int) -> ReadOutput:
    metadata = dig(record, "metadata")
    kind = text(metadata, "resource_type", "type") or text(metadata, "upload_type")
    licence = text(metadata, "license", "id") or text(metadata, "license")
    return _output(
        number=number,
        source="Zenodo",
        kind=kind,
        title=text(metadata, "title"),
        creators=tuple(
            Creator(
                name=_given_first(text(creator, "name")),
                orcid=_orcid(text(creator, "orcid")),
                affiliation=text(creator, "affiliation"),
            )
            for creator in items(metadata, "creators")
        ),
        version=text(metadata, "version"),
        licence=licence,
        url=text(record, "links", "html") or text(record, "links", "self_html"),
        doi=text(metadata, "doi") or text(record, "doi"),
        released=_date(text(metadata, "publication_date")),
        # Zenodo keeps the description as HTML; the site's is Markdown.
        description=strip_tags(text(metadata, "description")),
        paper_dois=_related_dois(
            items(metadata, "related_identifiers"),
            identifier="identifier",
            scheme="scheme",
            relation="relation",
        ),
    )


def _read_cff(document: Any, number: int) -> ReadOutput:
    doi = text(document, "doi") or next(
        (
            text(identifier, "value")
            for identifier in items(document, "identifiers")
            if text(identifier, "type") == "doi"
        ),
        "",
    )
    # The paper the authors ask to be cited, and the works the software references.
    cited = [dig(document, "preferred-citation"), *items(document, "references")]
    licence = dig(document, "license")
    return _output(
        number=number,
        source="CITATION.cff",
        kind=text(document, "type") or "software",
        title=text(document, "title"),
        creators=tuple(_cff_author(author) for author in items(document, "authors")),
        version=text(document, "version"),
        licence=text(licence, 0) if isinstance(licence, list) else text(document, "license"),
        url=text(document, "repository-code") or text(document, "url"),
        doi=doi,
        released=_date(dig(document, "date-released")),
        description=text(document, "abstract"),
        paper_dois=tuple(
            dict.fromkeys(normalize_doi(text(work, "doi")) for work in cited if text(work, "doi"))
        ),
    )


def _cff_author(author: Any) -> Creator:
    given, family = text(author, "given-names"), text(author, "family-names")
    particle = text(author, "name-particle")
    name = " ".join(part for part in (given, particle, family) if part) or text(author, "name")
    return Creator(
        name=name, orcid=_orcid(text(author, "orcid")), affiliation=text(author, "affiliation")
    )


def _output(*, number: int, source: str, kind: str, title: str, **fields: Any) -> ReadOutput:
    problems = []
    found_kind = KINDS.get(kind.casefold())
    if found_kind is None:
        what = f"a “{kind}”" if kind else "of no type"
        problems.append(
            f"It is {what}, not a dataset or software: only those two are imported here."
        )
    if not title:
        problems.append("It has no title.")
    creators = fields["creators"]
    if not creators or any(not creator.name for creator in creators):
        problems.append("Every creator needs a name; it names none or a creator without one.")
    fields["doi"] = normalize_doi(fields["doi"])
    return ReadOutput(
        number=number,
        source=source,
        kind=found_kind or "",
        title=" ".join(title.split()),
        problems=tuple(problems),
        **fields,
    )


def _related_dois(
    related: list[Any], *, identifier: str, scheme: str, relation: str
) -> tuple[str, ...]:
    dois = (
        normalize_doi(text(item, identifier))
        for item in related
        if text(item, scheme).casefold() == "doi"
        and text(item, relation).casefold() in PAPER_RELATIONS
        and text(item, identifier)
    )
    return tuple(dict.fromkeys(dois))


def _given_first(name: str) -> str:
    """ "Druskat, Stephan" → "Stephan Druskat", as DataCite and Zenodo write a person."""
    family, comma, given = name.partition(",")
    return f"{given.strip()} {family.strip()}" if comma and given.strip() else name.strip()


def _orcid(value: str) -> str:
    orcid = normalize_orcid(value) if value else ""
    return orcid if re.fullmatch(r"\d{4}-\d{4}-\d{4}-\d{3}[\dX]", orcid) else ""


def _date(value: Any) -> str:
    """An ISO date, a date YAML read, or the date part of a date and time, as "YYYY-MM-DD"."""
    if isinstance(value, datetime.date):
        return value.isoformat()[:10]
    if isinstance(value, str):
        return value.strip()[:10]
    return ""
