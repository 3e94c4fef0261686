"""Equal-contribution marks (the * of "Yihao Zhao*, Xiaoxiang Zhang*") carried by every format
that can hold them: biblatex's name annotation in BibTeX, CSL-JSON's `note`, schema.org's
`creditText`, and a CSV column (issue 23, item 10). RIS has no place for them."""

import csv
import io
import json
import subprocess
from xml.etree import ElementTree

import pytest

from publications.models import Authorship
from tests.factories import make_publication

pytestmark = pytest.mark.django_db


@pytest.fixture
def paper():
    paper = make_publication(
        title="Shared first place", year=2024, authors=["Yihao Zhao", "Xiaoxiang Zhang", "Xin Jin"]
    )
    Authorship.objects.filter(publication=paper, position__in=[1, 2]).update(
        equal_contribution=True
    )
    return paper


def test_bibtex_annotates_the_equal_contributors_by_their_place_for_biblatex(client, paper):
    text = client.get(f"/publications/{paper.slug}.bib").content.decode()
    assert "  author+an = {1=equal; 2=equal},\n" in text


def test_csl_json_notes_the_equal_contributors(client, paper):
    (item,) = json.loads(client.get("/publications/export.json").content)
    assert item["note"] == "Equal contribution: Yihao Zhao, Xiaoxiang Zhang."


def test_the_csv_has_a_column_of_the_equal_contributors(client, paper):
    (row,) = csv.DictReader(io.StringIO(client.get("/publications/export.csv").content.decode()))
    assert row["equal_contribution"] == "Yihao Zhao; Xiaoxiang Zhang"


def test_the_papers_json_ld_credits_the_equal_contributors(client, paper):
    html = client.get(paper.get_absolute_url()).content.decode()
    start = html.index('<script type="application/ld+json">') + len(
        '<script type="application/ld+json">'
    )
    data = json.loads(html[start : html.index("</script>", start)])
    assert data["creditText"] == "Equal contribution: Yihao Zhao, Xiaoxiang Zhang."


def test_a_paper_without_marks_carries_none(client):
    paper = make_publication(title="Alone", authors=["Xin Jin"])
    assert "author+an" not in client.get(f"/publications/{paper.slug}.bib").content.decode()
    (item,) = json.loads(client.get("/publications/export.json").content)
    assert "note" not in item


@pytest.mark.needs("biber")
def test_biber_reads_the_equal_contribution_annotation_of_the_first_two_authors(
    client, paper, tmp_path
):
    (tmp_path / "refs.bib").write_bytes(client.get(f"/publications/{paper.slug}.bib").content)
    run = subprocess.run(
        ["biber", "--tool", "--output-format=biblatexml", "refs.bib"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stdout
    xml = ElementTree.parse(tmp_path / "refs_bibertool.bltxml")
    annotations = xml.iter("{http://biblatex-biber.sourceforge.net/biblatexml}annotation")
    marks = [(a.get("field"), a.get("item"), a.text) for a in annotations]
    assert marks == [("author", "1", "equal"), ("author", "2", "equal")]
