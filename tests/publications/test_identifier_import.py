"""Adding papers by identifier in the admin and with `manage.py import_works`: the BibTeX
upload's review (duplicates by DOI, arXiv id and title, members, venues) and import, from
pasted identifiers fetched from recorded responses, or from the services' exports."""

import io
import json
import time

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse

from publications.bibtex.importing import IMPORTED_BY_IDENTIFIER
from publications.identifiers import gathering
from publications.models import BibtexImport, Publication, PublicationLink
from tests.factories import make_person, make_publication, make_venue
from tests.identifier_service import DATA, ORCID, recorded_services, slow_services

pytestmark = pytest.mark.django_db

URL = reverse("admin:publications_publication_add_by_identifier")
IMPORT = reverse("admin:publications_publication_import_bibtex")
CHANGELIST = reverse("admin:publications_publication_changelist")


def paste(client, text: str):
    return client.post(URL, {"identifiers": text})


def upload(client, name: str, content: bytes | None = None):
    content = (DATA / name).read_bytes() if content is None else content
    return client.post(URL, {"identifiers": "", "file": SimpleUploadedFile(name, content)})


def confirm(client, response, skip=()):
    return client.post(IMPORT, {"confirm": "1", "import": response.context["job"].pk, "skip": skip})


def test_the_publication_list_links_to_adding_by_identifier(editor_client):
    html = editor_client.get(CHANGELIST).content.decode()
    assert f'href="{URL}"' in html and "Add by DOI, arXiv id, ORCID…" in html


def test_staff_who_may_not_add_publications_cannot_add_by_identifier(client, django_user_model):
    member = django_user_model.objects.create_user("member", password="pw-member-1", is_staff=True)
    member.user_permissions.add(Permission.objects.get(codename="view_publication"))
    client.force_login(member)
    assert client.get(URL).status_code == 403


def test_pasted_dois_and_arxiv_ids_are_reviewed_then_imported_with_links_of_their_kind(
    editor_client, services
):
    hang = make_person(name="Hang Zhu", orcid=ORCID)
    sigcomm = make_venue(short_name="SIGCOMM", full_name="ACM SIGCOMM Conference")
    response = paste(editor_client, "10.1145/3603269.3604826\n1412.6980\n2101.00001\n")
    assert response.status_code == 200
    html = response.content.decode()
    assert "3 entries, 3 new, 0 likely updates, 0 duplicates." in html
    assert "member <a" in html and ">Hang Zhu</a>" in html
    assert ">SIGCOMM (ACM SIGCOMM Conference)</a>" in html  # an existing venue, not a new one
    assert not Publication.objects.exists()

    done = confirm(editor_client, response)
    assert done.status_code == 302 and done["Location"] == CHANGELIST
    paper = Publication.objects.get(doi="10.1145/3603269.3604826")
    assert (paper.venue, paper.year, paper.type) == (sigcomm, 2023, "conference-paper")
    assert [(a.name, a.person) for a in paper.authorships.order_by("position")] == [
        ("Hang Zhu", hang),
        ("Ada Lovelace", None),
        ("José Núñez", None),
    ]
    assert list(paper.links.values_list("kind", "url")) == [
        ("pdf", "https://dl.acm.org/doi/pdf/10.1145/3603269.3604826")
    ]
    adam = Publication.objects.get(title="Adam: A Method for Stochastic Optimization")
    assert (adam.type, adam.venue.short_name, adam.venue.kind) == (
        "preprint",
        "arXiv",
        "preprint-server",
    )
    assert list(adam.links.order_by("position").values_list("kind", "url")) == [
        ("pdf", "https://arxiv.org/pdf/1412.6980"),
        ("arxiv", "https://arxiv.org/abs/1412.6980"),
    ]
    assert BibtexImport.objects.get().state == "done"
    # The history says where the paper came from: identifiers, not a BibTeX file.
    assert paper.history.get().history_change_reason == IMPORTED_BY_IDENTIFIER
    assert LogEntry.objects.get(object_id=str(paper.pk)).change_message == (
        "Imported from identifiers (DOI, arXiv, ORCID, dblp, OpenAlex)."
    )


def test_an_author_is_matched_to_a_member_by_orcid_whatever_the_name_printed(editor_client):
    hang = make_person(name="Hang Zhu", orcid=ORCID)
    response = upload(editor_client, "crossref-works.json")
    confirm(editor_client, response)
    article = Publication.objects.get(doi="10.1109/TNET.2024.3370001")
    assert [a.person for a in article.authorships.order_by("position")] == [None, hang]
    assert article.authorships.get(position=2).name == "H. Zhu"


def test_duplicates_are_found_by_doi_arxiv_id_and_folded_title(editor_client):
    by_doi = make_publication(title="Some Other Title", doi="10.1145/3600006.3613140", year=2023)
    by_arxiv = make_publication(title="Renamed Since", year=2024, type="preprint")
    PublicationLink.objects.create(
        publication=by_arxiv, position=1, kind="arxiv", url="https://arxiv.org/abs/2401.01234v2"
    )
    response = upload(editor_client, "openalex-author-works.json")
    html = response.content.decode()
    assert "2 entries, 0 new" in html
    assert f"“{by_doi.title}” (same DOI)" in html
    assert "(same arXiv id)" in html

    make_publication(title="Ring — Rebalancing load with no coordination!", year=2024)
    html = upload(editor_client, "dblp-person.xml").content.decode()
    assert "(same title and year)" in html


@pytest.mark.parametrize(
    ("name", "titles"),
    [
        ("crossref-work.json", ["Scheduling Optical Circuits Without a Scheduler"]),
        ("openalex-author-works.json", ["Consensus in Four Round Trips"]),
        ("openalex-work.json", ["Consensus in Four Round Trips"]),
        ("orcid-works-bulk.json", ["Flow Tables That Fit"]),
        ("orcid-works-summary.json", ["Flow Tables That Fit"]),
        ("dblp-person.xml", ["Networks Are Computers"]),
        ("arxiv-query.xml", ["Adam: A Method for Stochastic Optimization"]),
    ],
)
def test_each_export_is_reviewed_and_imported(editor_client, name, titles):
    response = upload(editor_client, name)
    assert response.status_code == 200, response.content.decode()[:2000]
    assert "Review" in response.content.decode()
    confirm(editor_client, response)
    imported = set(Publication.objects.values_list("title", flat=True))
    assert set(titles) <= imported


def test_a_broken_upload_is_a_form_error_not_a_500(editor_client):
    response = upload(editor_client, "broken.json", b'{"message-type": "work", "message": {')
    assert response.status_code == 400
    assert "The file is not valid JSON" in response.content.decode()
    bomb = b'<!DOCTYPE x [<!ENTITY a "aaaa">]><dblpperson>&a;</dblpperson>'
    response = upload(editor_client, "bomb.xml", bomb)
    assert response.status_code == 400
    assert "declares XML entities" in response.content.decode()
    assert not BibtexImport.objects.exists()


def test_text_the_models_refuse_makes_a_work_invalid_in_the_review_not_a_500(editor_client):
    work = {
        "message-type": "work",
        "message": {
            "DOI": "10.1234/bell",
            "type": "journal-article",
            "title": ["A bell \u0007 in the title"],
            "author": [{"given": "Ada", "family": "Lovelace\u0000"}],
            "issued": {"date-parts": [[2024]]},
        },
    }
    response = upload(editor_client, "work.json", json.dumps(work).encode())
    assert response.status_code == 200
    html = response.content.decode()
    assert "Review the import" in html
    assert "Cannot be imported:" in html and "Nothing can be imported" in html
    assert not Publication.objects.exists()


def test_unrecognised_lines_and_unknown_identifiers_are_refused_by_line(editor_client, services):
    response = paste(editor_client, "10.1145/3603269.3604826\nnot an identifier\n")
    assert response.status_code == 400
    html = response.content.decode()
    assert "Line 2: “not an identifier” is not a DOI" in html
    response = paste(editor_client, "10.1145/3603269.3604826\n10.9999/none\n")
    assert response.status_code == 400
    assert "Line 2: no DOI “10.9999/none” was found." in response.content.decode()
    assert not BibtexImport.objects.exists()


def test_pasting_with_fetching_off_says_to_upload_the_export_instead(editor_client):
    response = paste(editor_client, "10.1145/3603269.3604826")
    assert response.status_code == 400
    assert "IDENTIFIER_FETCHING is off" in response.content.decode()


def test_a_review_left_waiting_is_imported_as_reviewed_without_asking_again(
    editor_client, settings
):
    """The entries are kept on the job: the confirm reads them back, with fetching off."""
    with recorded_services() as service:
        settings.IDENTIFIER_FETCHING = True
        settings.IDENTIFIER_SERVICE_URLS = service.urls()
        response = paste(editor_client, "z/HangZhu")
    settings.IDENTIFIER_FETCHING = False
    job = response.context["job"]
    assert job.source == "identifiers"
    confirm(editor_client, response, skip=["arXiv:2402.05555"])
    assert sorted(Publication.objects.values_list("title", flat=True)) == [
        "Networks Are Computers",
        "Ring: Rebalancing Load with No Coordination",
    ]


def test_a_large_confirmed_review_is_imported_by_the_worker(editor_client, settings):
    settings.BIBTEX_INLINE_IMPORT_MAX_ENTRIES = 1
    response = upload(editor_client, "dblp-person.xml")
    job = response.context["job"]
    redirect = confirm(editor_client, response)
    assert redirect.status_code == 302 and str(job.pk) in redirect["Location"]
    from publications.bibtex.jobs import run_import

    finished = run_import(job.pk)
    assert finished.state == "done", finished.message
    assert Publication.objects.count() == 3


# The command ----------------------------------------------------------------------------------


def test_import_works_dry_run_prints_the_review_and_imports_nothing(services):
    output = io.StringIO()
    call_command(
        "import_works",
        "10.1145/3603269.3604826",
        "1412.6980",
        "2101.00001",
        "--dry-run",
        stdout=output,
    )
    printed = output.getvalue()
    assert (
        "[new] 10.1145/3603269.3604826 (line 1): Scheduling Optical Circuits Without a Scheduler"
        in printed
    )
    assert "[new] arXiv:1412.6980 (line 2): Adam" in printed
    assert "Dry run: nothing was imported." in printed
    assert not Publication.objects.exists()


def test_import_works_imports_an_export_file(tmp_path):
    path = tmp_path / "works.json"
    path.write_bytes((DATA / "crossref-works.json").read_bytes())
    output = io.StringIO()
    call_command("import_works", "--file", str(path), stdout=output)
    assert "Imported 2 new" in output.getvalue()
    thesis = Publication.objects.get(doi="10.5555/thesis.2022.017")
    assert thesis.type == "thesis"
    assert thesis.history.get().history_change_reason == IMPORTED_BY_IDENTIFIER


def test_import_works_refuses_bad_input_with_a_sentence(tmp_path):
    with pytest.raises(CommandError, match="Line 1: “nonsense” is not a DOI"):
        call_command("import_works", "nonsense", stdout=io.StringIO())
    path = tmp_path / "bomb.xml"
    path.write_bytes(b'<!DOCTYPE x [<!ENTITY a "a">]><dblp>&a;</dblp>')
    with pytest.raises(CommandError, match="declares XML entities"):
        call_command("import_works", "--file", str(path), stdout=io.StringIO())
    with pytest.raises(CommandError, match="Give identifiers or --file"):
        call_command("import_works", stdout=io.StringIO())


@pytest.mark.parametrize(
    ("crossref_type", "publication_type"),
    [
        ("journal-article", "journal-article"),
        ("proceedings-article", "conference-paper"),
        ("posted-content", "preprint"),
        ("dissertation", "thesis"),
        ("book-chapter", "book-chapter"),
    ],
)
def test_each_kind_of_work_is_imported_as_its_publication_type(
    editor_client, crossref_type, publication_type
):
    work = {
        "message-type": "work",
        "message": {
            "DOI": "10.1234/kind",
            "type": crossref_type,
            "title": ["A Work of Some Kind"],
            "container-title": ["Somewhere"],
            "author": [{"given": "Ada", "family": "Lovelace"}],
            "issued": {"date-parts": [[2024, 2]]},
        },
    }
    confirm(editor_client, upload(editor_client, "work.json", json.dumps(work).encode()))
    assert Publication.objects.get(doi="10.1234/kind").type == publication_type


def test_lines_not_fetched_in_time_are_said_and_what_came_is_reviewed(
    editor_client, settings, monkeypatch
):
    """A paste's time is up (20 s; 1 s here, the services answering after 1.5 s): the lines
    not asked are named and the editor pastes them again, but the works fetched are reviewed
    rather than thrown away with a form error."""
    monkeypatch.setattr(gathering, "TOTAL_SECONDS", 1)
    with slow_services(1.5) as service:
        settings.IDENTIFIER_FETCHING = True
        settings.IDENTIFIER_SERVICE_URLS = service.urls()
        started = time.monotonic()
        response = paste(editor_client, "10.1145/3603269.3604826\n10.1145/3611111\n")
        assert time.monotonic() - started < 20  # generous: one slow answer, not two
    assert response.status_code == 200
    html = response.content.decode()
    assert "1 entry, 1 new" in html
    assert "Line 2: not asked: the lines above took more than 1 seconds." in html
    assert [path for path, _headers in service.requests] == [
        "/crossref/works/10.1145%2F3603269.3604826"
    ]


def _slow_author_pages(pages: int):
    """An OpenAlex author whose works come in `pages` pages of 0.3 s each."""
    page = json.loads((DATA / "openalex-author-works.json").read_bytes())
    served = []

    def slow_pages(url: str) -> bytes:
        time.sleep(0.3)
        served.append(url)
        page["meta"]["next_cursor"] = None if len(served) == pages else "more"
        return json.dumps(page).encode()

    return slow_pages, served


def test_import_works_reads_a_large_author_whole_with_no_web_requests_deadline(monkeypatch):
    """The command holds no web request: the paste's deadline (20 s; 0.5 s here) does not stop
    it, so an author too large to paste in the admin is read whole."""
    from publications.management.commands import import_works

    slow_pages, served = _slow_author_pages(3)
    monkeypatch.setattr(gathering, "TOTAL_SECONDS", 0.5)
    monkeypatch.setattr(import_works, "default_fetch", lambda: slow_pages)
    output = io.StringIO()
    call_command("import_works", "https://openalex.org/A5023888391", "--dry-run", stdout=output)
    assert len(served) == 3
    assert "Dry run: nothing was imported." in output.getvalue()


def test_import_works_stops_at_seconds_when_asked_and_reviews_what_it_read(monkeypatch):
    from publications.management.commands import import_works

    slow_pages, served = _slow_author_pages(3)
    monkeypatch.setattr(import_works, "default_fetch", lambda: slow_pages)
    output, errors = io.StringIO(), io.StringIO()
    call_command(
        "import_works",
        "https://openalex.org/A5023888391",
        "--seconds",
        "0.5",
        "--dry-run",
        stdout=output,
        stderr=errors,
    )
    assert len(served) == 2
    assert "Line 1: cut after 4 works" in errors.getvalue()
    assert "[new]" in output.getvalue()
