"""The exports of datasets and software, read back by the tools that consume them: biber
(biblatex's own reader) for @dataset and @software, citeproc-py and pandoc's citeproc for
CSL-JSON, a YAML reader for CITATION.cff, JSON for CodeMeta."""

import json
from xml.etree import ElementTree

import pytest
import yaml
from citeproc import (
    Citation,
    CitationItem,
    CitationStylesBibliography,
    CitationStylesStyle,
    formatter,
)
from citeproc.source.json import CiteProcJSON

from tests.outputs.conftest import make_output
from tests.publications.test_bibtex_read_back import BIBLATEXML, pandoc, plain, read_by_biber


def biber_entries(bib: str, tmp_path) -> dict[str, ElementTree.Element]:
    """Each entry as biber reads it (tool mode, written as BibLaTeXML), by key."""
    source = tmp_path / "outputs.bib"
    source.write_text(bib, encoding="utf-8")
    return {entry.get("id", ""): entry for entry in read_by_biber(source)}


def family_names(entry: ElementTree.Element) -> list[str]:
    return [
        part.text or ""
        for name in entry.iter(f"{BIBLATEXML}name")
        for part in name.findall(f"{BIBLATEXML}namepart[@type='family']")
    ]


@pytest.mark.needs("biber")
def test_biber_reads_the_list_as_a_dataset_and_a_software_entry(client, lab_outputs, tmp_path):
    bib = client.get("/outputs/export.bib").content.decode()
    entries = biber_entries(bib, tmp_path)
    by_title = {
        plain(entry.findtext(f"{BIBLATEXML}title", "")): entry for entry in entries.values()
    }
    software, dataset = by_title["Klotski simulator"], by_title["Klotski traces"]
    assert software.get("entrytype") == "software"
    assert dataset.get("entrytype") == "dataset"
    assert family_names(software) == ["Zhu", "Zhao"]
    assert family_names(dataset) == ["Zhao", "Zhu"]
    assert software.findtext(f"{BIBLATEXML}version") == "1.2.0"
    assert software.findtext(f"{BIBLATEXML}doi") == "10.5281/zenodo.1234567"


@pytest.mark.needs("biber")
def test_two_outputs_with_the_same_key_keep_two_entries(client, db, tmp_path):
    for version in ("1", "2"):
        make_output(title="Traces", released="2024", version=version)
    bib = client.get("/outputs/export.bib").content.decode()
    assert len(biber_entries(bib, tmp_path)) == 2


def test_citeproc_reads_and_formats_the_csl_json_of_both_kinds(client, lab_outputs):
    items = json.loads(client.get("/outputs/export.json").content)
    source = CiteProcJSON(items)
    read = {" ".join(dict(source[item["id"].lower()])["title"]): item for item in items}
    assert read["Klotski simulator"]["type"] == "software"
    assert read["Klotski traces"]["type"] == "dataset"
    assert read["Klotski simulator"]["issued"] == {"date-parts": [[2023, 7, 25]]}
    assert read["Klotski traces"]["issued"] == {"date-parts": [[2023, 5]]}
    style = CitationStylesStyle("harvard-cite-them-right", validate=False)
    bibliography = CitationStylesBibliography(style, source, formatter.plain)
    for item in items:
        bibliography.register(Citation([CitationItem(item["id"])]))
    text = "\n".join(str(entry) for entry in bibliography.bibliography())
    assert "Klotski simulator" in text and "Zhao" in text


@pytest.mark.needs("pandoc")
def test_pandoc_reads_the_csl_json_back_with_its_types_version_and_doi(client, lab_outputs):
    csl = client.get("/outputs/klotski-simulator.json").content.decode()
    (item,) = json.loads(pandoc("-f", "csljson", "-t", "csljson", stdin=csl))
    assert item["type"] == "software"
    assert item["title"] == "Klotski simulator"
    assert item["version"] == "1.2.0"
    assert item["DOI"] == "10.5281/zenodo.1234567"
    assert [author["family"] for author in item["author"]] == ["Zhu", "Zhao"]


def test_citation_cff_holds_what_the_format_requires(client, lab_outputs):
    answer = client.get("/outputs/klotski-simulator/CITATION.cff")
    assert answer["Content-Type"].startswith("application/x-yaml")
    cff = yaml.safe_load(answer.content.decode())
    # Citation File Format 1.2.0 requires cff-version, message, title and authors.
    assert cff["cff-version"] == "1.2.0"
    assert cff["type"] == "software"
    assert cff["title"] == "Klotski simulator"
    assert cff["message"]
    assert cff["authors"] == [
        {
            "family-names": "Zhu",
            "given-names": "Hang",
            "orcid": "https://orcid.org/0000-0002-1825-0097",
        },
        {"family-names": "Zhao", "given-names": "Bo"},
    ]
    assert cff["version"] == "1.2.0"
    assert cff["license"] == "MIT"
    assert cff["doi"] == "10.5281/zenodo.1234567"
    assert cff["repository-code"] == "https://github.com/example/klotski"
    assert str(cff["date-released"]) == "2023-07-25"
    assert cff["abstract"] == "A simulator of reconfigurable networks."


def test_citation_cff_stays_yaml_whatever_the_title_holds(client, db):
    title = 'Tool: "quoted" # not a comment\\ and a colon: here'
    output = make_output(kind="software", title=title, slug="odd")
    cff = yaml.safe_load(client.get(f"{output.get_absolute_url()}CITATION.cff").content)
    assert cff["title"] == title


def test_codemeta_names_the_software_as_codemeta_reads_it(client, lab_outputs):
    data = client.get("/outputs/klotski-simulator/codemeta.json").json()
    assert data["@context"] == "https://w3id.org/codemeta/3.0"
    assert data["@type"] == "SoftwareSourceCode"
    assert data["name"] == "Klotski simulator"
    assert data["author"][0] == {
        "@type": "Person",
        "@id": "https://orcid.org/0000-0002-1825-0097",
        "familyName": "Zhu",
        "givenName": "Hang",
    }
    assert data["license"] == "https://spdx.org/licenses/MIT.html"
    assert data["codeRepository"] == "https://github.com/example/klotski"
    assert data["identifier"] == "https://doi.org/10.5281/zenodo.1234567"


def test_one_outputs_bibtex_is_the_entry_its_page_shows(client, lab_outputs):
    entry = client.get("/outputs/klotski-traces.bib").content.decode()
    assert entry.startswith("@dataset{")
    assert entry.strip() in client.get("/outputs/klotski-traces/").content.decode().replace(
        "&#x27;", "'"
    )
