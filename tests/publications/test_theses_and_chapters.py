"""Theses and book chapters as every format names them (issue 23, item 4): a thesis's
university is its publisher (CSL `publisher` and `genre`, RIS `PB`, Highwire
`citation_dissertation_institution`, schema.org `Thesis` with `sourceOrganization`), never a
container it is part of; a chapter names its book's publisher, which the BibTeX import keeps and
every export writes, so `bibtex` with plain.bst prints it without a warning."""

import json

import pytest
import rispy

from publications.bibtex import import_bibtex
from publications.models import Publication
from tests.factories import make_publication, make_venue
from tests.publications.test_bibtex_read_back import bibliography

pytestmark = pytest.mark.django_db

UNIVERSITY = "Johns Hopkins University"


@pytest.fixture
def thesis():
    venue = make_venue(short_name="JHU", full_name=UNIVERSITY, kind="other")
    return make_publication(
        title="Network Systems for Distributed Training",
        type=Publication.Type.THESIS,
        venue=venue,
        year=2022,
        authors=["Hang Zhu"],
    )


@pytest.fixture
def chapter():
    venue = make_venue(short_name="HPDC Book", full_name="Handbook of Distributed Computing")
    return make_publication(
        title="Schedulers for Deep Learning",
        type=Publication.Type.BOOK_CHAPTER,
        venue=venue,
        publisher="Springer",
        year=2023,
        authors=["Zerui Wang"],
    )


def json_ld(client, paper) -> dict:
    html = client.get(paper.get_absolute_url()).content.decode()
    opening = '<script type="application/ld+json">'
    start = html.index(opening) + len(opening)
    return json.loads(html[start : html.index("</script>", start)])


def test_a_thesis_in_csl_json_is_published_by_its_university_with_its_genre(client, thesis):
    (item,) = json.loads(client.get("/publications/export.json").content)
    assert item["type"] == "thesis"
    assert item["publisher"] == f"{UNIVERSITY} (JHU)"
    assert item["genre"] == "Thesis"
    assert "container-title" not in item


def test_a_thesis_in_ris_names_its_university_as_publisher(client, thesis):
    (record,) = rispy.loads(client.get("/publications/export.ris").content.decode())
    assert record["type_of_reference"] == "THES"
    assert record["publisher"] == f"{UNIVERSITY} (JHU)"
    assert "secondary_title" not in record and "alternate_title3" not in record


def test_a_thesis_page_names_its_institution_for_google_scholar_and_schema_org(client, thesis):
    html = client.get(thesis.get_absolute_url()).content.decode()
    assert f'<meta name="citation_dissertation_institution" content="{UNIVERSITY}">' in html
    assert "citation_conference_title" not in html
    data = json_ld(client, thesis)
    assert data["@type"] == "Thesis"
    assert data["sourceOrganization"] == {"@type": "Organization", "name": UNIVERSITY}
    assert "isPartOf" not in data


def test_a_chapter_names_its_books_publisher_in_every_export(client, chapter):
    bib = client.get(f"/publications/{chapter.slug}.bib").content.decode()
    assert "  publisher = {{Springer}},\n" in bib
    (item,) = json.loads(client.get("/publications/export.json").content)
    assert (item["publisher"], item["container-title"]) == (
        "Springer",
        "Handbook of Distributed Computing (HPDC Book)",
    )
    (record,) = rispy.loads(client.get("/publications/export.ris").content.decode())
    assert record["publisher"] == "Springer"
    html = client.get(chapter.get_absolute_url()).content.decode()
    assert '<meta name="citation_publisher" content="Springer">' in html
    assert json_ld(client, chapter)["publisher"] == {"@type": "Organization", "name": "Springer"}
    assert "Springer" in client.get("/publications/export.csv").content.decode()


@pytest.mark.needs("bibtex")
def test_bibtex_prints_a_chapter_and_a_thesis_with_plain_bst_without_a_warning(
    client, chapter, thesis, tmp_path
):
    path = tmp_path / "refs.bib"
    path.write_bytes(client.get("/publications/export.bib").content)
    entries = bibliography(path, "plain")  # fails on any warning ("empty publisher in …")
    chapter.refresh_from_db()
    assert "Springer, 2023" in entries[chapter.citation_key][-1]


def test_the_bibtex_import_keeps_a_chapters_publisher():
    result = import_bibtex(
        text="@incollection{wang2023,\n  author = {Zerui Wang},\n"
        "  title = {Schedulers for Deep Learning},\n"
        "  booktitle = {Handbook of Distributed Computing},\n"
        "  publisher = {Springer},\n  year = {2023}\n}\n"
    )
    assert len(result.created) == 1, result
    paper = Publication.objects.get(title="Schedulers for Deep Learning")
    assert (paper.type, paper.publisher) == (Publication.Type.BOOK_CHAPTER, "Springer")


def test_staff_enter_a_chapters_publisher_in_the_admin(editor_client, chapter):
    html = editor_client.get(f"/admin/publications/publication/{chapter.pk}/change/").content
    assert b'name="publisher" value="Springer"' in html


def test_a_bibtex_import_gives_an_existing_chapter_the_publisher_its_entry_names():
    venue = make_venue(short_name="HDC", full_name="Handbook of Distributed Computing")
    paper = make_publication(
        title="Schedulers for Deep Learning",
        type=Publication.Type.BOOK_CHAPTER,
        venue=venue,
        year=2023,
        authors=["Zerui Wang"],
    )
    result = import_bibtex(
        text="@incollection{wang2023,\n  author = {Zerui Wang},\n"
        "  title = {Schedulers for Deep Learning},\n"
        "  booktitle = {Handbook of Distributed Computing (HDC)},\n"
        "  publisher = {Springer},\n  year = {2023}\n}\n",
        keys=["wang2023"],  # an update is applied when an editor ticks it
    )
    assert [updated.pk for updated in result.updated] == [paper.pk]
    paper.refresh_from_db()
    assert paper.publisher == "Springer"
