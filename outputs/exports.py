"""Datasets and software as the tools researchers cite with read them: CSL-JSON (`dataset`,
`software`), biblatex (`@dataset`, `@software`), and for software its `CITATION.cff` (the
Citation File Format GitHub and Zenodo read) and CodeMeta JSON.

Each reads only what Output.objects.for_listing() prefetched. Names, LaTeX and the BibTeX
entry's layout are the publications export's own (publications/exports.py's public writing
helpers), so a name is written one way wherever the site writes it.
"""

import json
import textwrap
from collections.abc import Iterable

from base.identifiers import orcid_url
from base.markdown import plain_text
from base.structured_data import without_empty
from base.validation import without_control_characters
from outputs.models import Output
from people.names import split_name
from publications.citation_keys import base_citation_key
from publications.exports import (
    CSL_JSON_LAYOUT,
    bibtex_name,
    csl_name,
    latex,
    one_line,
    verbatim,
    write_bibtex_entry,
)

CODEMETA_CONTEXT = "https://w3id.org/codemeta/3.0"
CFF_VERSION = "1.2.0"


def spdx_url(licence: str) -> str:
    return f"https://spdx.org/licenses/{licence}.html"


def citation_key(output: Output) -> str:
    """As a paper's: first creator's family name, year, first word of the title."""
    names = output.creator_names
    return base_citation_key(
        first_author=names[0] if names else "", year=output.year, title=output.title
    )


def csl_item(output: Output, *, base_url: str) -> dict[str, object]:
    """One CSL-JSON item. CSL has no funder and no field for related papers: they are left out."""
    item: dict[str, object] = {
        "id": citation_key(output),
        "type": output.kind,  # CSL 1.0.2 names both types as this model does
        "title": output.title,
        "author": [csl_name(name) for name in output.creator_names],
    }
    if output.released:
        parts = [output.released.year, output.released.month, output.released.day]
        item["issued"] = {"date-parts": [[part for part in parts if part]]}
    item.update(
        without_empty({"version": output.version, "license": output.licence, "DOI": output.doi})
    )
    item["URL"] = output.url or base_url + output.get_absolute_url()
    if description := plain_text(output.description_html):
        item["abstract"] = description
    cleaned: dict[str, object] = without_control_characters(item)
    return cleaned


def csl_json(outputs: Iterable[Output], *, base_url: str) -> str:
    """A CSL-JSON array, laid out as the publications' export lays out its own."""
    items = [
        textwrap.indent(
            json.dumps(csl_item(output, base_url=base_url), ensure_ascii=False, indent=2), "  "
        )
        for output in outputs
    ]
    return CSL_JSON_LAYOUT.whole(items)


def bibtex_entry(output: Output, *, key: str | None = None) -> str:
    """A biblatex `@dataset` or `@software` entry. Classic BibTeX styles, which know neither,
    print it as @misc; the licence has no biblatex field and is left out."""
    fields = []
    if names := output.creator_names:
        fields.append(("author", " and ".join(map(bibtex_name, names))))
    # Double braces keep the title's capitals whatever the style.
    fields.append(("title", "{" + latex(output.title) + "}"))
    if output.version:
        fields.append(("version", latex(output.version)))
    if output.released:
        fields.append(("date", output.released.isoformat()))
        fields.append(("year", str(output.released.year)))
    if output.doi:
        fields.append(("doi", verbatim(output.doi)))
    if output.url:
        fields.append(("url", verbatim(output.url)))
    return write_bibtex_entry(output.kind, key or citation_key(output), fields)


def bibtex(outputs: Iterable[Output]) -> str:
    """Entries of a list, each key made unique within the file ("zhu2024traces", "…a")."""
    entries, seen = [], set()
    for output in outputs:
        key = citation_key(output)
        suffix = 0
        while key in seen:
            suffix += 1
            key = f"{citation_key(output)}{chr(ord('a') + (suffix - 1) % 26)}{suffix // 26 or ''}"
        seen.add(key)
        entries.append(bibtex_entry(output, key=key))
    return "\n".join(entries)


def _yaml(value: str) -> str:
    """A YAML double-quoted scalar: JSON's escapes are YAML's, so json.dumps writes one that
    every YAML reader takes, whatever the text holds."""
    return json.dumps(one_line(value), ensure_ascii=False)


def citation_cff(output: Output, *, base_url: str) -> str:
    """CITATION.cff (Citation File Format 1.2.0). `date-released` needs a full date: a release
    known to the month or year only is left without one."""
    lines = [
        f"cff-version: {CFF_VERSION}",
        f"message: {_yaml('If you use this ' + output.kind + ', please cite it as below.')}",
        f"type: {output.kind}",
        f"title: {_yaml(output.title)}",
        "authors:",
    ]
    for creator in output.creators.all():
        researcher = creator.researcher
        parts = split_name(researcher.name)
        if parts.family:
            family = " ".join(part for part in (parts.particle, parts.family) if part)
            lines.append(f"  - family-names: {_yaml(family)}")
            if parts.given:
                lines.append(f"    given-names: {_yaml(parts.given)}")
        else:
            lines.append(f"  - name: {_yaml(researcher.name)}")
        if researcher.orcid:
            lines.append(f"    orcid: {_yaml(orcid_url(researcher.orcid))}")
    if not output.creators.all():
        lines.append(f"  - name: {_yaml('Unknown')}")
    if output.version:
        lines.append(f"version: {_yaml(output.version)}")
    if output.doi:
        lines.append(f"doi: {_yaml(output.doi)}")
    if output.licence:
        lines.append(f"license: {_yaml(output.licence)}")
    if output.url:
        key = "repository-code" if output.is_software else "repository"
        lines.append(f"{key}: {_yaml(output.url)}")
    lines.append(f"url: {_yaml(base_url + output.get_absolute_url())}")
    if output.released and output.released.day:
        lines.append(f"date-released: {_yaml(output.released.isoformat())}")
    if description := plain_text(output.description_html):
        lines.append(f"abstract: {_yaml(description)}")
    return "\n".join(lines) + "\n"


def codemeta(output: Output, *, base_url: str) -> dict[str, object]:
    """CodeMeta 3.0 (schema.org's SoftwareSourceCode with its own context)."""
    data: dict[str, object] = {
        "@context": CODEMETA_CONTEXT,
        "@type": "SoftwareSourceCode",
        "name": output.title,
        "url": base_url + output.get_absolute_url(),
    }
    authors = []
    for creator in output.creators.all():
        parts = split_name(creator.researcher.name)
        author: dict[str, object] = {"@type": "Person"}
        if creator.researcher.orcid:
            author["@id"] = orcid_url(creator.researcher.orcid)
        if parts.family:
            author["familyName"] = " ".join(p for p in (parts.particle, parts.family) if p)
            if parts.given:
                author["givenName"] = parts.given
        else:
            author["name"] = creator.researcher.name
        authors.append(author)
    if authors:
        data["author"] = authors
    if output.version:
        data["version"] = output.version
    if output.licence:
        data["license"] = spdx_url(output.licence)
    if output.url:
        data["codeRepository"] = output.url
    if output.doi:
        data["identifier"] = f"https://doi.org/{output.doi}"
    if output.released:
        data["datePublished"] = output.released.isoformat()
    if description := plain_text(output.description_html):
        data["description"] = description
    cleaned: dict[str, object] = without_control_characters(data)
    return cleaned
