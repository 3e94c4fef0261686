"""Datasets and software fetched by DOI from DataCite (Zenodo's DOIs too), as papers are fetched
by identifier: the admin's import page takes pasted DOIs and shows the same review as an
upload; `manage.py import_outputs --doi` likewise. The service is played on 127.0.0.1 from
tests/data/identifiers (tests/identifier_service.py): no test reaches the network."""

import time

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from outputs import fetching
from outputs.formats import read_outputs
from outputs.models import Output
from people.models import Researcher
from publications.identifiers.fetching import FetchFailed
from tests.factories import make_person, make_staff_login
from tests.identifier_service import DATA, recorded_services, slow_services

IMPORT = reverse("admin:outputs_output_import")

ZENODO_DOI = "10.5281/zenodo.1234567"
DATASET_DOI = "10.5281/zenodo.7654321"


@pytest.fixture
def lab(db):
    """A member known by ORCID under another spelling than DataCite's."""
    return make_person(name="Zhu Hang", slug="hang-zhu", orcid="0000-0002-1825-0097")


@pytest.fixture
def editor_login(db):
    return make_staff_login("editor", role="Editors")


@pytest.fixture
def datacite(settings):
    """DataCite played from the recorded answers, with fetching on."""
    with recorded_services() as service:
        settings.IDENTIFIER_FETCHING = True
        settings.IDENTIFIER_SERVICE_URLS = service.urls()
        yield service


def test_pasted_dois_give_the_uploads_review_and_the_confirmation_fetches_nothing_again(
    client, lab, editor_login, datacite, settings
):
    client.force_login(editor_login)
    before = (Output.objects.count(), Researcher.objects.count())
    pasted = f"https://doi.org/{DATASET_DOI}\ndoi:{ZENODO_DOI}\n{DATASET_DOI}"
    review = client.post(IMPORT, {"dois": pasted})
    assert review.status_code == 200
    page = review.text
    assert "Klotski network traces" in page and "Klotski simulator" in page
    assert "Hang Zhu (member: Zhu Hang)" in page
    assert (Output.objects.count(), Researcher.objects.count()) == before
    # Each DOI asked once, politely.
    asked = [path for path, _headers in datacite.requests]
    assert asked == [f"/datacite/dois/{DATASET_DOI}", f"/datacite/dois/{ZENODO_DOI}"]
    assert all(
        headers["User-Agent"].startswith("lab-directory/") for _path, headers in datacite.requests
    )
    settings.IDENTIFIER_FETCHING = False  # the confirmation reads the records the form carries
    answer = client.post(IMPORT, {"document": review.context["document"], "confirm": "1"})
    assert answer.status_code == 302
    assert sorted(Output.objects.values_list("kind", "title", "licence")) == [
        ("dataset", "Klotski network traces", "CC-BY-4.0"),
        ("software", "Klotski simulator", "MIT"),
    ]
    assert len(datacite.requests) == 2


@pytest.mark.parametrize(
    ("pasted", "answer", "says"),
    [
        ("not-a-doi 10.5281/zenodo.1234567", None, "Not a DOI: “not-a-doi”"),
        ("", None, "This field is required"),
        ("10.5281/zenodo.999", None, "DataCite knows no DOI 10.5281/zenodo.999."),
        ("10.5281/zenodo.5", b"<html>Busy</html>", "is not valid JSON"),
        ("10.5281/zenodo.5", b'{"errors": [{"status": "500"}]}', "is not a DataCite record"),
    ],
)
def test_a_bad_doi_or_a_bad_answer_is_a_sentence_on_the_field_and_writes_nothing(
    client, lab, editor_login, datacite, pasted, answer, says
):
    client.force_login(editor_login)
    if answer is not None:
        datacite.answers["/datacite/dois/10.5281/zenodo.5"] = answer
    response = client.post(IMPORT, {"dois": pasted})
    assert response.status_code == 400
    assert says in response.context["doi_form"].errors["dois"][0]
    assert not Output.objects.exists()


def test_a_datacite_that_does_not_answer_in_time_is_a_sentence(
    client, lab, editor_login, datacite, settings
):
    client.force_login(editor_login)
    settings.IDENTIFIER_FETCH_TIMEOUT_SECONDS = 1
    settings.IDENTIFIER_SERVICE_URLS = {"datacite": f"{datacite.url}/slow"}
    response = client.post(IMPORT, {"dois": ZENODO_DOI})
    assert response.status_code == 400
    (error,) = response.context["doi_form"].errors["dois"]
    # "took longer than 1 seconds", or the socket's own time-out on a busy machine.
    assert error.startswith(f"{ZENODO_DOI}: 127.0.0.1 ") and "Try again later." in error


def test_with_fetching_off_the_page_says_so_once_and_asks_nobody(
    client, lab, editor_login, datacite, settings
):
    client.force_login(editor_login)
    settings.IDENTIFIER_FETCHING = False
    response = client.post(IMPORT, {"dois": f"{ZENODO_DOI}\n{DATASET_DOI}"})
    (error,) = response.context["doi_form"].errors["dois"]
    assert error.count("IDENTIFIER_FETCHING is off") == 1
    assert datacite.requests == []


def test_the_command_imports_by_doi_and_refuses_an_unknown_one(lab, datacite, capsys):
    call_command("import_outputs", "--doi", ZENODO_DOI)
    assert Output.objects.get().title == "Klotski simulator"
    with pytest.raises(CommandError, match="DataCite knows no DOI 10.5281/zenodo.999"):
        call_command("import_outputs", "--doi", "10.5281/zenodo.999")
    with pytest.raises(CommandError, match="not both"):
        call_command("import_outputs", "CITATION.cff", "--doi", ZENODO_DOI)
    assert Output.objects.count() == 1


@pytest.fixture
def slow_datacite(settings):
    """DataCite taking 1.5 seconds for each record: a slow day."""
    with slow_services(1.5) as server:
        settings.IDENTIFIER_FETCHING = True
        settings.IDENTIFIER_SERVICE_URLS = server.urls()
        yield server


def test_a_paste_stops_asking_at_its_deadline_and_reviews_what_came(
    client, lab, editor_login, slow_datacite, monkeypatch
):
    """The whole paste has a deadline (TOTAL_SECONDS, 1 s here), not only each request: the
    DOIs not asked by then are named in a sentence, and the records fetched are reviewed."""
    monkeypatch.setattr(fetching, "TOTAL_SECONDS", 1)
    client.force_login(editor_login)
    started = time.monotonic()
    review = client.post(IMPORT, {"dois": f"{DATASET_DOI}\n{ZENODO_DOI}\n10.5281/zenodo.5"})
    assert time.monotonic() - started < 20  # generous: two requests of 1.5 s, not three
    assert review.status_code == 200
    assert "Klotski network traces" in review.text
    assert "Klotski simulator" not in review.text
    assert f"Not fetched in time, paste them again: {ZENODO_DOI}, 10.5281/zenodo.5." in review.text
    assert [path for path, _headers in slow_datacite.requests] == [f"/datacite/dois/{DATASET_DOI}"]
    client.post(IMPORT, {"document": review.context["document"], "confirm": "1"})
    assert list(Output.objects.values_list("title", flat=True)) == ["Klotski network traces"]


def test_the_command_names_the_dois_not_fetched_in_time(lab, slow_datacite, monkeypatch, capsys):
    monkeypatch.setattr(fetching, "TOTAL_SECONDS", 1)
    call_command("import_outputs", "--doi", DATASET_DOI, "--doi", ZENODO_DOI)
    assert f"Not fetched in time, paste them again: {ZENODO_DOI}." in capsys.readouterr().err
    assert list(Output.objects.values_list("title", flat=True)) == ["Klotski network traces"]


def test_a_doi_timing_out_past_the_deadline_is_pasted_again_and_what_came_is_reviewed(db):
    """The DOI being asked when the deadline passes times out on a slow DataCite: it is named
    with those not asked, and the records fetched before it are reviewed, not thrown away."""
    record = (DATA / "datacite-zenodo-software.json").read_bytes()
    asked = []

    def slow_datacite(url: str) -> bytes:
        asked.append(url)
        if len(asked) <= 2:
            return record
        time.sleep(0.6)  # past the deadline of 0.3 s, then the request's own time-out
        raise FetchFailed("api.datacite.org took longer than 10 seconds.", timed_out=True)

    dois = ["10.5281/zenodo.1", "10.5281/zenodo.2", "10.5281/zenodo.3", "10.5281/zenodo.4"]
    fetched = fetching.fetch_records(dois, fetch=slow_datacite, seconds=0.3)
    assert len(asked) == 3
    assert len(read_outputs(fetched.data)) == 2
    assert fetched.late == ("10.5281/zenodo.3", "10.5281/zenodo.4")
    assert "paste them again: 10.5281/zenodo.3, 10.5281/zenodo.4." in fetched.late_sentence()
