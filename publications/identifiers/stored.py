"""The entries read from identifiers or exports, kept as JSON on their import job
(BibtexImport.text, source "identifiers") between the review and the confirm: the import reads
them back exactly, without asking the services again."""

import json
from dataclasses import asdict, fields
from typing import Any

from publications.bibtex.reading import BibEntry, Bibliography

TUPLE_FIELDS = {field.name for field in fields(BibEntry) if str(field.type).startswith("tuple")}


def to_json(bibliography: Bibliography) -> str:
    return json.dumps([asdict(entry) for entry in bibliography.entries], ensure_ascii=False)


def from_json(text: str) -> Bibliography:
    stored: list[dict[str, Any]] = json.loads(text)
    known = {field.name for field in fields(BibEntry)}
    read = []
    for values in stored:
        values = {name: value for name, value in values.items() if name in known}
        for name in TUPLE_FIELDS & values.keys():
            values[name] = tuple(values[name])
        read.append(BibEntry(**values))
    return Bibliography(entries=tuple(read), problems=())
