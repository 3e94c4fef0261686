"""Datasets and software imported from DataCite JSON, Zenodo JSON and CITATION.cff: each read
into the same record, reviewed (duplicates by DOI and folded title, creators matched as authors
are, papers linked by DOI) with nothing written, saved only once confirmed; bad files refused
with a sentence and nothing half-written."""

import codecs
import json
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse

from outputs import admin_views
from outputs.formats import MAX_CREATORS, MAX_FILE_BYTES, read_outputs
from outputs.importing import IMPORTED, import_outputs, review_outputs
from outputs.models import Output
from people.models import ExternalPerson, Researcher
from publications.bibtex.review import Decision
from publications.identifiers.documents import Unreadable
from tests.factories import make_person, make_publication, make_staff_login
from tests.outputs.conftest import make_output, make_outsider

DATA = Path(__file__).parent.parent / "data" / "outputs"
DATACITE = (DATA / "datacite-dataset.json").read_bytes()
ZENODO = (DATA / "zenodo-software.json").read_bytes()
CFF = (DATA / "CITATION.cff").read_bytes()
PAPER_DOI = "10.1145/3544216.3544265"
IMPORT = reverse("admin:outputs_output_import")


@pytest.fixture
def lab(db):
    """A member known by ORCID under another spelling, an outsider known by name, a paper."""
    hang = make_person(name="Zhu Hang", slug="hang-zhu", orcid="0000-0002-1825-0097")
    bo = make_outsider(name="Bo Zhao", slug="bo-zhao")
    paper = make_publication(title="Klotski", slug="klotski", doi=PAPER_DOI, authors=[hang])
    return {"hang": hang, "bo": bo, "paper": paper}


def written() -> tuple[int, int]:
    return Output.objects.count(), Researcher.objects.count()


def test_a_datacite_record_is_read_with_its_creators_licence_date_and_papers():
    [dataset] = read_outputs(DATACITE)
    assert (dataset.kind, dataset.title, dataset.version) == (
        "dataset",
        "Klotski network traces",
        "2",
    )
    assert [(c.name, c.orcid) for c in dataset.creators] == [
        ("Hang Zhu", "0000-0002-1825-0097"),
        ("Bo Zhao", ""),
    ]
    assert dataset.creators[1].affiliation == "Another Institute"
    assert dataset.licence == "cc-by-4.0"
    assert dataset.released == "2023-05-17"
    assert dataset.doi == "10.5281/zenodo.7654321"
    assert dataset.url == "https://zenodo.org/records/7654321"
    # The paper it supplements and the one citing it; never the version it is of.
    assert dataset.paper_dois == (PAPER_DOI, "10.9999/not-on-the-site")
    assert not dataset.problems


def test_a_zenodo_record_is_read_with_names_given_first_and_its_description_as_text():
    [software] = read_outputs(ZENODO)
    assert software.kind == "software"
    assert [creator.name for creator in software.creators] == ["Hang Zhu", "Ngozi Okafor"]
    assert software.description == "A simulator of reconfigurable networks."
    assert (software.licence, software.version, software.released) == (
        "mit",
        "v1.2.0",
        "2023-07-25",
    )
    assert software.paper_dois == (PAPER_DOI,)


def test_a_citation_cff_is_read_with_its_date_doi_entity_author_and_preferred_citation():
    [software] = read_outputs(CFF)
    assert software.kind == "software"
    assert software.released == "2024-02-29"
    assert software.doi == "10.5281/zenodo.2345678"
    assert software.url == "https://github.com/example/klotski-planner"
    assert [creator.name for creator in software.creators] == [
        "Hang Zhu",
        "Bo Zhao",
        "The Klotski team",
    ]
    assert software.paper_dois == (PAPER_DOI,)


def test_the_review_matches_creators_by_orcid_then_name_and_papers_by_doi_writing_nothing(lab):
    before = written()
    review = review_outputs(outputs=read_outputs(DATACITE))
    [item] = review.outputs
    assert item.decision is Decision.NEW
    assert [match.researcher for match in item.creators] == [lab["hang"], lab["bo"]]
    assert item.papers == (lab["paper"],)
    assert item.unknown_dois == ("10.9999/not-on-the-site",)
    assert written() == before


def test_importing_saves_the_output_its_creators_in_order_and_its_paper_both_ways(lab):
    [output] = import_outputs(review=review_outputs(outputs=read_outputs(DATACITE)))
    output.refresh_from_db()
    assert output.licence == "CC-BY-4.0"  # as SPDX spells it
    assert str(output.released) == "17 May 2023"
    assert [row.researcher_id for row in output.creators.order_by("position")] == [
        lab["hang"].pk,
        lab["bo"].pk,
    ]
    assert list(lab["paper"].outputs.all()) == [output]
    assert output.history.earliest().history_change_reason == IMPORTED


def test_a_creator_matched_to_nobody_becomes_one_external_person_across_records(lab):
    twice = json.loads(ZENODO)
    again = json.loads(ZENODO)
    again["metadata"]["title"] = "Klotski simulator plugins"
    again["metadata"]["doi"] = again["doi"] = "10.5281/zenodo.1234599"
    document = json.dumps({"hits": {"hits": [twice, again]}}).encode()
    saved = import_outputs(review=review_outputs(outputs=read_outputs(document)))
    assert len(saved) == 2
    okafor = ExternalPerson.objects.get(name="Ngozi Okafor")
    assert okafor.affiliation == "Example University"
    assert {row.output_id for row in okafor.output_credits.all()} == {o.pk for o in saved}


def test_an_output_already_on_the_site_by_doi_or_folded_title_is_found_and_not_imported_again(
    lab,
):
    """Found by its DOI (whatever its case) or its folded title; a record saying something else
    than the row is an update (tests/outputs/test_import_updates.py), applied only if chosen."""
    make_output(title="Other name", doi="10.5281/ZENODO.7654321")
    make_output(title="KLOTSKI simulator!")
    reviewed = review_outputs(outputs=[*read_outputs(DATACITE), *read_outputs(ZENODO)]).outputs
    assert [item.decision for item in reviewed] == [Decision.UPDATE, Decision.UPDATE]
    assert reviewed[0].reason == "same DOI" and reviewed[1].reason == "same title"
    assert import_outputs(review=review_outputs(outputs=read_outputs(DATACITE))) == []
    assert Output.objects.filter(title="Other name").exists()


def test_the_same_record_twice_in_a_file_is_imported_once(lab):
    record = json.loads(DATACITE)["data"]
    document = json.dumps({"data": [record, record]}).encode()
    review = review_outputs(outputs=read_outputs(document))
    assert [item.decision for item in review.outputs] == [Decision.NEW, Decision.DUPLICATE]
    assert review.outputs[1].reason == "record 1 above"


def test_an_unknown_licence_or_another_resource_type_cannot_be_imported_and_says_why(lab):
    record = json.loads(DATACITE)
    record["data"]["attributes"]["rightsList"][0]["rightsIdentifier"] = "my-own-licence"
    text = json.loads(DATACITE)
    text["data"]["attributes"]["types"]["resourceTypeGeneral"] = "JournalArticle"
    document = json.dumps({"data": [record["data"], text["data"]]}).encode()
    licence, article = review_outputs(outputs=read_outputs(document)).outputs
    assert licence.decision is Decision.INVALID and "my-own-licence" in licence.describe()
    assert article.decision is Decision.INVALID
    assert "not a dataset or software" in article.describe()


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00", "not UTF-8"),
        (b"just some words: [unclosed", "neither JSON nor valid YAML"),
        (b"title: A tool\nauthors: []\n", "no “cff-version”"),
        (b'{"results": [1, 2]}', "neither a DataCite record"),
        (b'{"data": ', "not valid JSON"),
        (b"[" * 100_000 + b"]" * 100_000, "too deeply"),
        (b"cff-version: 1.2.0\nx: " + b"[" * 100_000 + b"]" * 100_000, "too deeply"),
        (b"cff-version: 1.2.0\ndate-released: 2024-13-01\n", "an impossible date"),
        (b"cff-version: 1.2.0\nversion: " + b"9" * 5000 + b"\n", "thousands of digits"),
    ],
)
def test_a_file_that_is_not_a_record_is_refused_with_a_sentence(data, says):
    with pytest.raises(Unreadable, match=says):
        read_outputs(data)


def test_a_yaml_bomb_is_refused_before_anything_is_expanded():
    bomb = b'cff-version: 1.2.0\na: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
    for level in "bcdefghi":
        previous = chr(ord(level) - 1)
        bomb += f"{level}: &{level} [*{previous},*{previous},*{previous},*{previous}]\n".encode()
    bomb += b"title: *i\n"
    with pytest.raises(Unreadable, match="anchors and aliases"):
        read_outputs(bomb)


def test_a_file_too_large_or_with_ten_thousand_creators_is_refused_whole(lab):
    with pytest.raises(Unreadable, match="larger than 1 MB"):
        read_outputs(b" " * (MAX_FILE_BYTES + 1))
    many = json.loads(ZENODO)
    many["metadata"]["creators"] = [{"name": f"Person {n}"} for n in range(10_000)]
    with pytest.raises(Unreadable, match="10,000 creators"):
        read_outputs(json.dumps(many).encode())


def test_a_json_file_saved_with_a_byte_order_mark_is_read_as_json():
    [dataset] = read_outputs(codecs.BOM_UTF8 + DATACITE)
    assert (dataset.source, dataset.title) == ("DataCite", "Klotski network traces")


def test_a_file_naming_more_creators_in_all_than_an_import_reads_is_refused_whole():
    """Each record stays under the limit of a record; together they are over the file's."""
    record = json.loads(ZENODO)
    record["metadata"]["creators"] = [{"name": f"Person {n}"} for n in range(MAX_CREATORS)]
    many = [{**record, "metadata": {**record["metadata"], "title": f"Tool {n}"}} for n in range(11)]
    with pytest.raises(Unreadable, match="names 5,500 creators in all"):
        read_outputs(json.dumps(many).encode())


@pytest.fixture
def editor_login(db):
    return make_staff_login("editor", role="Editors")


def test_the_largest_file_read_comes_back_whole_with_the_confirmation(client, lab, editor_login):
    """Its base64 copy in the review form stays under Django's limit on a form's body."""
    client.force_login(editor_login)
    record = json.loads(ZENODO)
    record["files"] = []  # the record's files, which the import does not read: room to fill
    padding = MAX_FILE_BYTES - len(json.dumps(record).encode()) - 20
    record["files"] = [{"key": "x" * padding}]
    data = json.dumps(record).encode()
    assert MAX_FILE_BYTES - 200 < len(data) <= MAX_FILE_BYTES
    document = client.post(IMPORT, {"file": _file("big.json", data)}).context["document"]
    answer = client.post(IMPORT, {"document": document, "confirm": "1"})
    assert answer.status_code == 302
    assert Output.objects.get().title == "Klotski simulator"


def test_an_editor_reviews_an_upload_and_nothing_is_written_until_confirming(
    client, lab, editor_login
):
    client.force_login(editor_login)
    before = written()
    upload = {"file": _file("record.json", DATACITE)}
    review = client.post(IMPORT, upload)
    assert review.status_code == 200
    page = review.text
    assert "Klotski network traces" in page and "Hang Zhu (member: Zhu Hang)" in page
    assert "10.9999/not-on-the-site (no paper on the site has it)" in page
    assert written() == before
    document = review.context["document"]
    answer = client.post(IMPORT, {"document": document, "confirm": "1"})
    assert answer.status_code == 302
    assert Output.objects.get().title == "Klotski network traces"


def test_a_record_left_out_at_the_review_is_not_imported(client, lab, editor_login):
    client.force_login(editor_login)
    document = client.post(IMPORT, {"file": _file("c.json", DATACITE)}).context["document"]
    client.post(IMPORT, {"document": document, "confirm": "1", "leave_out": "1"})
    assert not Output.objects.exists()


def test_a_bad_upload_is_a_form_error_and_writes_nothing(client, lab, editor_login):
    client.force_login(editor_login)
    answer = client.post(IMPORT, {"file": _file("bomb.cff", b"cff-version: 1.2.0\nx: &a 1\ny: *a")})
    assert answer.status_code == 400
    assert "anchors and aliases" in answer.text
    assert not Output.objects.exists()


def test_a_member_cannot_open_the_import(client, lab):
    member = make_staff_login("hang", role="Member logins")
    client.force_login(member)
    assert client.get(IMPORT).status_code == 403


def test_the_command_imports_a_citation_cff_and_refuses_a_bad_file(lab, tmp_path, capsys):
    good = tmp_path / "CITATION.cff"
    good.write_bytes(CFF)
    call_command("import_outputs", str(good))
    output = Output.objects.get()
    assert (output.title, output.kind, output.licence) == (
        "Klotski planner",
        "software",
        "Apache-2.0",
    )
    assert list(output.publications.all()) == [lab["paper"]]
    bad = tmp_path / "bad.json"
    bad.write_bytes(b'{"data": {"attributes": {"titles": "x"')
    with pytest.raises(CommandError, match="not valid JSON"):
        call_command("import_outputs", str(bad))
    assert Output.objects.count() == 1


def _file(name: str, data: bytes) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="application/octet-stream")


def test_a_person_added_while_confirming_is_a_message_and_the_review_again_with_nothing_written(
    client, lab, editor_login, monkeypatch
):
    """The save checks what the review does not (an ORCID iD held once): a new external person
    with the ORCID iD of a creator the review matched to nobody, added between the review and
    the save, made the confirmation a server error. Now the import's one transaction rolls
    back (the output it had saved first included) and the review is shown again."""
    client.force_login(editor_login)
    record = json.loads(ZENODO)
    record["metadata"]["creators"][1]["orcid"] = "0000-0001-5109-3700"  # Ngozi Okafor
    upload = {"file": _file("record.json", json.dumps(record).encode())}
    document = client.post(IMPORT, upload).context["document"]
    reviewed = admin_views.review_outputs
    added = []

    def review_then_someone_adds_the_person(*, outputs):
        review = reviewed(outputs=outputs)
        if not added:
            added.append(make_outsider(name="N. Okafor", orcid="0000-0001-5109-3700"))
        return review

    monkeypatch.setattr(admin_views, "review_outputs", review_then_someone_adds_the_person)
    before = written()
    answer = client.post(IMPORT, {"document": document, "confirm": "1"})
    assert answer.status_code == 400
    assert "Nothing was imported: an output or a person this file names" in answer.text
    assert "Ngozi Okafor (external person: N. Okafor)" in answer.text
    assert answer.context["document"] == document
    # The output was saved before its creators failed: rolled back; only the person added
    # meanwhile is new.
    assert written() == (before[0], before[1] + 1)
    assert not Output.objects.filter(title="Klotski simulator").exists()


def test_the_command_says_a_person_added_since_its_review_stopped_it_and_writes_nothing(
    lab, tmp_path, monkeypatch
):
    """The same clash in `manage.py import_outputs`: it was a ValidationError's traceback with
    the output saved before it rolled back. Now a sentence, exit status 1, nothing written."""
    from outputs.management.commands import import_outputs as command

    record = json.loads(ZENODO)
    record["metadata"]["creators"][1]["orcid"] = "0000-0001-5109-3700"  # Ngozi Okafor
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    reviewed = command.review_outputs

    def review_then_someone_adds_the_person(*, outputs):
        review = reviewed(outputs=outputs)
        make_outsider(name="N. Okafor", orcid="0000-0001-5109-3700")
        return review

    monkeypatch.setattr(command, "review_outputs", review_then_someone_adds_the_person)
    before = written()
    with pytest.raises(CommandError) as refused:
        call_command("import_outputs", str(path))
    assert str(refused.value) == (
        "Nothing was imported: an output or a person this file names was added or changed on the site "
        "after the file was reviewed. Run the command again to review it anew."
    )
    assert refused.value.returncode == 1
    assert written() == (before[0], before[1] + 1)
    assert not Output.objects.filter(title="Klotski simulator").exists()
