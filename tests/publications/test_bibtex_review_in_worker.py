"""A large BibTeX upload is read and reviewed in the task worker, not in the web request: the
status page shows its progress, then the review the worker kept, the same as a small file's;
a file over the entry limit is refused before it is read; a refused confirm reads the file once.
"""

import re
from contextlib import contextmanager

import bibtexparser
import pytest
from django.core.management import call_command
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from publications.models import BibtexImport, Publication
from tests.factories import make_person, make_publication

URL = reverse("admin:publications_publication_import_bibtex")

BIB = r"""
@string{soe = "Symposium on Examples (SoE)"}
@inproceedings{zhu2025new, title={A New Paper}, author={Zhu, Hang and M{\"u}ller, Hans},
  booktitle=soe, year=2025}
@article{old2020, title={Already Here}, year=2020}
@article{moved2021, title={Moved Paper}, journal={Journal of Tests}, year=2022}
@misc{others2024, title={With Others}, author={Ada Lovelace and others}, year=2024,
  url={not a web address}}
"""


def many(count: int) -> str:
    return "".join(
        f"@misc{{k{number:05}, title={{Paper {number}}}, year=2024}}\n" for number in range(count)
    )


def run_worker():
    """`manage.py db_worker` itself, in this process, until the queue is empty."""
    call_command("db_worker", batch=True, startup_delay=False, reload=False, verbosity=0)


def status_url(job):
    return reverse("admin:publications_publication_import_bibtex_status", args=[job.pk])


def the_review(html: str) -> tuple[str, str]:
    """What a review says, without the page around it: its summary and its table's rows."""
    summary = re.search(r'<p class="import-summary">(.*?)</p>', html, re.S)
    rows = re.search(r"<tbody>(.*?)</tbody>", html, re.S)
    assert summary and rows, html
    return summary[1], rows[1]


_real_parse_string = bibtexparser.parse_string


def _refuse_to_read(*args, **kwargs):
    raise AssertionError("bibtexparser was asked to read the file")


@contextmanager
def not_read():
    """Within it, any read of BibTeX by bibtexparser fails the test."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(bibtexparser, "parse_string", _refuse_to_read)
        yield


@pytest.fixture
def papers_here(db):
    make_person(name="Hang Zhu")
    make_publication(title="Already Here", year=2020, type="journal-article")
    make_publication(title="Moved Paper", year=2021, type="journal-article")


@pytest.mark.django_db(transaction=True)
def test_a_large_upload_is_reviewed_in_the_worker_as_a_small_one_is_in_the_request(
    editor_client, settings, papers_here
):
    inline = editor_client.post(URL, {"text": BIB})
    assert inline.status_code == 200
    inline_review = the_review(inline.content.decode())
    assert inline_review[0] == "4 entries, 2 new, 1 likely update, 1 duplicate."

    settings.BIBTEX_INLINE_REVIEW_MAX_ENTRIES = 3
    queued = editor_client.post(URL, {"text": BIB})
    job = BibtexImport.objects.get(state="reading")
    assert queued.status_code == 302 and queued["Location"] == status_url(job)
    waiting = editor_client.get(status_url(job))
    assert waiting.status_code == 200
    html = waiting.content.decode()
    assert "Being read and reviewed" in html and "Waiting for the worker" in html
    assert '<meta http-equiv="refresh" content="2">' in html
    assert "manage.py db_worker" in html

    run_worker()
    job.refresh_from_db()
    assert (job.state, job.done, job.total) == ("reviewed", 4, 4)
    assert sorted(job.importable_keys) == ["moved2021", "others2024", "zhu2025new"]
    with not_read():  # shown as the worker kept it
        shown = editor_client.get(status_url(job))
    assert shown.status_code == 200
    assert the_review(shown.content.decode()) == inline_review
    assert "http-equiv" not in shown.content.decode()
    assert not Publication.objects.filter(title="A New Paper").exists()

    # Confirmed as any review is; a large file is imported by the worker too.
    confirmed = editor_client.post(URL, {"confirm": "1", "import": job.pk, "skip": ["moved2021"]})
    assert confirmed.status_code == 302 and confirmed["Location"] == status_url(job)
    job.refresh_from_db()
    assert (job.state, job.review) == ("queued", {})
    run_worker()
    assert (
        "Imported 2 new publications and updated 0; added 1 venue."
        in editor_client.get(status_url(job)).content.decode()
    )
    assert Publication.objects.get(title="A New Paper").authorships.count() == 2
    assert Publication.objects.get(title="Moved Paper").year == 2021
    # The review and the import; the new papers queued builds of the related papers' model too.
    bibtex_tasks = DBTaskResult.objects.filter(task_path__contains="bibtex")
    assert list(bibtex_tasks.values_list("status", flat=True)) == ["SUCCESSFUL"] * 2


@pytest.mark.django_db(transaction=True)
def test_twenty_five_thousand_entries_are_reviewed_in_the_worker_and_confirmed(editor_client):
    """The most a file may hold. The request only counts the entries; the worker reads them,
    and the confirm, a few fields, queues the import."""
    with not_read():
        queued = editor_client.post(URL, {"text": many(25_000)})
    job = BibtexImport.objects.get()
    assert queued.status_code == 302 and queued["Location"] == status_url(job)
    run_worker()
    with not_read():
        review = editor_client.get(status_url(job))
    assert review.status_code == 200
    html = review.content.decode()
    assert "25000 entries, 25000 new" in html
    assert html.count('name="skip"') == 25_000
    response = editor_client.post(URL, {"confirm": "1", "import": job.pk, "skip": ["k24999"]})
    assert response.status_code == 302 and response["Location"] == status_url(job)
    job.refresh_from_db()
    assert (job.state, job.total, job.skipped_keys) == ("queued", 24_999, ["k24999"])


@pytest.mark.django_db
def test_a_file_over_the_entry_limit_is_refused_before_it_is_read(editor_client):
    with not_read():
        response = editor_client.post(URL, {"text": many(25_001)})
    assert response.status_code == 400
    assert (
        "Line 25001, entry “k25000”: the file has 25,001 entries; an import reads at most "
        "25,000, and this is the first one past that. Split the file."
    ) in response.content.decode()
    assert not BibtexImport.objects.exists() and not DBTaskResult.objects.exists()


@pytest.mark.django_db
def test_a_refused_confirm_reads_the_file_once(editor_client, monkeypatch):
    review = editor_client.post(URL, {"text": BIB})
    reads = []

    def counted(*args, **kwargs):
        reads.append(1)
        return _real_parse_string(*args, **kwargs)

    monkeypatch.setattr(bibtexparser, "parse_string", counted)
    make_publication(title="Already Here", year=2020, type="journal-article")  # added meanwhile
    job = review.context["job"]
    response = editor_client.post(URL, {"confirm": "1", "import": job.pk, "skip": ["others2024"]})
    assert response.status_code == 400
    html = response.content.decode()
    assert "no longer new or updates: old2020" in html
    assert "Duplicate of “Already Here” (same title and year)" in html
    assert 'value="others2024" id="skip-4" aria-label="Leave out others2024" checked' in html
    assert len(reads) == 1


@pytest.mark.django_db(transaction=True)
def test_a_large_file_refused_at_import_is_reviewed_again_in_the_worker(editor_client, settings):
    settings.BIBTEX_INLINE_REVIEW_MAX_ENTRIES = 2
    editor_client.post(URL, {"text": many(3)})
    run_worker()
    job = BibtexImport.objects.get()
    editor_client.post(URL, {"confirm": "1", "import": job.pk})
    make_publication(title="Paper 1", year=2024, type="other")  # added meanwhile
    run_worker()
    job.refresh_from_db()
    assert job.state == "refused"
    with not_read():
        again = editor_client.post(status_url(job), {"review-again": "1"})
    new = BibtexImport.objects.get(state="reading")
    assert again.status_code == 302 and again["Location"] == status_url(new)
    run_worker()
    html = editor_client.get(status_url(new)).content.decode()
    assert "3 entries, 2 new, 0 likely updates, 1 duplicate." in html
    assert "Duplicate of “Paper 1”" in html
