"""A record of a dataset or software already on the site (the same DOI, or the same title and
year) that says something else is offered as an update: the review shows each field it would
change, nothing is applied unless staff tick it (the command: --apply-updates), and the history
records the change. New records are published at once, as an editor's imported papers are, or
kept as drafts when the editor chooses so."""

import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse

from outputs.formats import read_outputs
from outputs.importing import UPDATED, import_outputs, review_outputs
from outputs.models import Output
from publications.bibtex.review import Decision
from tests.factories import make_person, make_staff_login
from tests.outputs.conftest import make_output

DATA = Path(__file__).parent.parent / "data" / "outputs"
DATACITE = (DATA / "datacite-dataset.json").read_bytes()
IMPORT = reverse("admin:outputs_output_import")


@pytest.fixture
def on_the_site(db):
    """The dataset of tests/data/outputs/datacite-dataset.json as staff entered it a year
    before: version 1, no licence, and a description of their own."""
    make_person(name="Zhu Hang", slug="hang-zhu", orcid="0000-0002-1825-0097")
    return make_output(
        kind="dataset",
        title="Klotski network traces",
        slug="klotski-traces",
        version="1",
        doi="10.5281/zenodo.7654321",
        released="2022",
        description="Written by staff.",
    )


@pytest.fixture
def editor_login(db):
    return make_staff_login("editor", role="Editors")


def _record(**attributes) -> bytes:
    record = json.loads(DATACITE)
    record["data"]["attributes"].update(attributes)
    return json.dumps(record).encode()


def test_a_record_of_an_output_on_the_site_is_an_update_listing_each_change(on_the_site):
    [item] = review_outputs(outputs=read_outputs(DATACITE)).outputs
    assert item.decision is Decision.UPDATE
    assert item.existing == on_the_site and item.reason == "same DOI"
    assert [(change.field, change.old, change.new) for change in item.changes] == [
        ("version", "1", "2"),
        ("licence", "", "CC-BY-4.0"),
        ("url", "", "https://zenodo.org/records/7654321"),
        ("released", "2022", "17 May 2023"),
    ]
    assert "Version 1 → 2" in item.describe()
    # Once applied, the same record says nothing new: a duplicate.
    import_outputs(review=review_outputs(outputs=read_outputs(DATACITE)), chosen=[item.key])
    [again] = review_outputs(outputs=read_outputs(DATACITE)).outputs
    assert again.decision is Decision.DUPLICATE


def test_the_same_title_and_year_finds_it_without_a_doi(on_the_site):
    on_the_site.doi = ""
    on_the_site.released = "2023"
    on_the_site.save()
    [item] = review_outputs(outputs=read_outputs(DATACITE)).outputs
    assert item.decision is Decision.UPDATE and item.reason == "same title and year"
    assert ("doi", "", "10.5281/zenodo.7654321") in [
        (change.field, change.old, change.new) for change in item.changes
    ]


def test_the_review_shows_the_changes_and_applies_nothing_unless_ticked(
    client, on_the_site, editor_login
):
    client.force_login(editor_login)
    review = client.post(IMPORT, {"file": _upload(DATACITE)})
    assert review.status_code == 200
    page = review.text
    assert "1 update of outputs on the site" in page
    assert "Version: 1 → 2" in page and 'name="apply" value="1"' in page
    document = review.context["document"]
    client.post(IMPORT, {"document": document, "confirm": "1"})
    on_the_site.refresh_from_db()
    assert on_the_site.version == "1" and on_the_site.history.count() == 1
    answer = client.post(IMPORT, {"document": document, "confirm": "1", "apply": "1"})
    assert answer.status_code == 302
    on_the_site.refresh_from_db()
    assert (on_the_site.version, on_the_site.licence, str(on_the_site.released)) == (
        "2",
        "CC-BY-4.0",
        "17 May 2023",
    )
    assert on_the_site.description == "Written by staff."  # staff's text is theirs
    assert Output.objects.count() == 1
    latest = on_the_site.history.latest()
    assert latest.history_change_reason == UPDATED
    assert latest.history_user == editor_login


def test_the_command_reports_updates_and_applies_them_only_when_asked(
    on_the_site, tmp_path, capsys
):
    path = tmp_path / "record.json"
    path.write_bytes(DATACITE)
    call_command("import_outputs", str(path))
    out = capsys.readouterr().out
    assert "[update]" in out and "--apply-updates" in out
    on_the_site.refresh_from_db()
    assert on_the_site.version == "1"
    call_command("import_outputs", str(path), "--apply-updates")
    assert "Updated 1 output(s)" in capsys.readouterr().out
    on_the_site.refresh_from_db()
    assert on_the_site.version == "2"
    assert on_the_site.history.latest().history_change_reason == UPDATED


def test_new_records_are_published_unless_the_editor_keeps_them_as_drafts(client, editor_login, db):
    client.force_login(editor_login)
    first = client.post(IMPORT, {"file": _upload(DATACITE)})
    assert 'value="now" checked' in first.text  # the default: as imported papers, at once
    client.post(IMPORT, {"document": first.context["document"], "confirm": "1"})
    assert Output.objects.get().is_published
    other = _record(doi="10.5281/zenodo.1", titles=[{"title": "Other traces"}])
    second = client.post(IMPORT, {"file": _upload(other)})
    client.post(
        IMPORT, {"document": second.context["document"], "confirm": "1", "publish": "drafts"}
    )
    assert not Output.objects.get(title="Other traces").is_published


def test_the_command_keeps_new_records_as_drafts_when_asked(db, tmp_path):
    path = tmp_path / "record.json"
    path.write_bytes(DATACITE)
    call_command("import_outputs", str(path), "--drafts")
    assert not Output.objects.get().is_published


def _upload(data: bytes):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile("record.json", data, content_type="application/json")


def _review_of_version_3(client, editor_login):
    """The review of the record saying version 3, where the site says 2: the one change."""
    make_person(name="Zhu Hang", slug="hang-zhu", orcid="0000-0002-1825-0097")
    output = make_output(
        kind="dataset",
        title="Klotski network traces",
        slug="klotski-traces",
        version="2",
        licence="CC-BY-4.0",
        url="https://zenodo.org/records/7654321",
        doi="10.5281/zenodo.7654321",
        released="2023-05-17",
        description="Written by staff.",
    )
    client.force_login(editor_login)
    review = client.post(IMPORT, {"file": _upload(_record(version="3"))})
    [item] = review.context["review"].outputs
    assert [(c.field, c.old, c.new) for c in item.changes] == [("version", "2", "3")]
    return output, review.context["document"], item.key


def test_an_update_applies_only_the_changes_the_editor_reviewed(client, editor_login):
    """Another editor corrects the title between the review and the confirmation: the update
    applies the version the editor saw and ticked, and does not write the record's title back
    over the correction."""
    output, document, key = _review_of_version_3(client, editor_login)
    output.title = "Klotski network traces (corrected)"
    output.save()
    answer = client.post(IMPORT, {"document": document, "confirm": "1", "apply": key})
    assert answer.status_code == 302
    output.refresh_from_db()
    assert (output.version, output.title) == ("3", "Klotski network traces (corrected)")


def test_an_update_of_a_field_changed_since_the_review_writes_nothing(client, editor_login):
    output, document, key = _review_of_version_3(client, editor_login)
    output.version = "2.1"
    output.save()
    versions = output.history.count()
    answer = client.post(IMPORT, {"document": document, "confirm": "1", "apply": key})
    assert answer.status_code == 400
    assert "Nothing was imported: an output or a person this file names" in answer.text
    assert "Version: 2.1 → 3" in answer.text  # the review again, as the site stands now
    output.refresh_from_db()
    assert output.version == "2.1" and output.history.count() == versions
