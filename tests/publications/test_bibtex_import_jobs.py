"""A confirmed BibTeX import: any number of entries in the form, once only however often it is
submitted, and in the task worker with a progress page when it is large."""

from datetime import timedelta

import pytest
from django.contrib.admin.models import LogEntry
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from publications.bibtex import importing as bibtex_importing
from publications.bibtex import jobs as bibtex_jobs
from publications.bibtex import parse_bibtex
from publications.bibtex.jobs import run_import
from publications.models import BibtexImport, Publication
from tests.factories import make_publication

URL = reverse("admin:publications_publication_import_bibtex")
CHANGELIST = reverse("admin:publications_publication_changelist")


def many(count: int) -> str:
    return "".join(
        f"@misc{{k{number:05}, title={{Paper {number}}}, year=2024}}\n" for number in range(count)
    )


def review(client, text):
    response = client.post(URL, {"text": text})
    assert response.status_code == 200
    return response


def confirm(client, reviewed, skip=()):
    return client.post(URL, {"confirm": "1", "import": reviewed.context["job"].pk, "skip": skip})


def status_url(job):
    return reverse("admin:publications_publication_import_bibtex_status", args=[job.pk])


def run_worker():
    """`manage.py db_worker` itself, in this process, until the queue is empty."""
    call_command("db_worker", batch=True, startup_delay=False, reload=False, verbosity=0)


@pytest.mark.django_db
def test_more_entries_than_django_accepts_fields_are_confirmed(editor_client, settings):
    """1,500 entries were 1,500 ticked fields: Django refuses more than 1,000 (a bare 400).
    Here Django accepts 100 fields and the form has 150 entries: the same refusal would come
    at a tenth of the rows (importing 1,500 took 40 s of the CI run)."""
    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 100
    settings.BIBTEX_INLINE_IMPORT_MAX_ENTRIES = 200
    settings.BIBTEX_INLINE_REVIEW_MAX_ENTRIES = 200
    reviewed = review(editor_client, many(150))
    response = confirm(editor_client, reviewed, skip=["k00007", "k00149"])
    assert response.status_code == 302 and response["Location"] == CHANGELIST
    assert Publication.objects.count() == 148
    assert not Publication.objects.filter(title__in=["Paper 7", "Paper 149"]).exists()
    assert LogEntry.objects.filter(change_message="Imported from BibTeX.").count() == 148


@pytest.mark.django_db
def test_a_second_submit_of_the_same_confirm_is_told_it_already_happened(editor_client):
    reviewed = review(editor_client, many(3))
    first = confirm(editor_client, reviewed)
    assert first["Location"] == CHANGELIST
    again = confirm(editor_client, reviewed)
    job = BibtexImport.objects.get()
    assert again.status_code == 302 and again["Location"] == status_url(job)
    page = editor_client.get(again["Location"])
    html = page.content.decode()
    assert "This import was already confirmed" in html
    assert "Imported 3 new publications and updated 0." in html
    assert Publication.objects.count() == 3


@pytest.mark.django_db
def test_reading_reports_progress_in_batches():
    reports = []
    parse_bibtex(many(2500), progress=lambda *report: reports.append(report))
    assert reports == [
        ("Reading the entries", 1000, 2500),
        ("Reading the entries", 2000, 2500),
        ("Reading the entries", 2500, 2500),
    ]


@pytest.mark.django_db(transaction=True)
def test_a_large_import_runs_in_the_worker_with_a_progress_page(editor_client, settings):
    settings.BIBTEX_INLINE_IMPORT_MAX_ENTRIES = 2
    reviewed = review(editor_client, many(5))
    response = confirm(editor_client, reviewed, skip=["k00004"])
    job = BibtexImport.objects.get()
    assert response.status_code == 302 and response["Location"] == status_url(job)
    assert not Publication.objects.exists()  # nothing ran in the request

    waiting = editor_client.get(status_url(job)).content.decode()
    assert "Waiting for the worker" in waiting
    assert '<meta http-equiv="refresh" content="2">' in waiting
    assert "manage.py db_worker" in waiting
    assert '<progress id="import-progress" max="4" value="0">' in waiting
    # A double click while it waits queues nothing more.
    assert confirm(editor_client, reviewed)["Location"] == status_url(job)
    assert DBTaskResult.objects.count() == 1

    run_worker()
    finished = editor_client.get(status_url(job)).content.decode()
    assert "Imported 4 new publications and updated 0." in finished
    assert "http-equiv" not in finished
    assert Publication.objects.count() == 4
    job.refresh_from_db()
    # Counted out of the entries chosen: 4 of 4, not "5 of 4" (issue 27).
    assert (job.state, job.done, job.total, job.text) == ("done", 4, 4, "")
    # (The new papers queued a build of the related papers' model too: publications/related.py.)
    import_task = DBTaskResult.objects.get(task_path="publications.tasks.run_bibtex_import")
    assert import_task.status == "SUCCESSFUL"


@pytest.mark.django_db(transaction=True)
def test_a_background_import_refused_since_the_review_says_why_and_can_be_reviewed_again(
    editor_client, settings
):
    settings.BIBTEX_INLINE_IMPORT_MAX_ENTRIES = 1
    reviewed = review(editor_client, many(3))
    confirm(editor_client, reviewed)
    make_publication(title="Paper 1", year=2024, type="other")  # added meanwhile
    run_worker()
    job = BibtexImport.objects.get()
    html = editor_client.get(status_url(job)).content.decode()
    assert "Nothing was imported: these entries are no longer new or updates: k00001." in html
    assert Publication.objects.count() == 1
    again = editor_client.post(status_url(job), {"review-again": "1"})
    assert again.status_code == 200
    assert "Duplicate of “Paper 1”" in again.content.decode()


@pytest.mark.django_db
def test_an_import_runs_once_even_if_its_task_runs_twice(editor_client, settings):
    settings.BIBTEX_INLINE_IMPORT_MAX_ENTRIES = 1
    confirm(editor_client, review(editor_client, many(2)))
    job = BibtexImport.objects.get()
    assert run_import(job.pk).state == "done"
    assert run_import(job.pk) is None
    assert Publication.objects.count() == 2


@pytest.mark.django_db
def test_the_progress_page_is_for_those_who_may_import(editor_client, django_user_model):
    reviewed = review(editor_client, many(1))
    confirm(editor_client, reviewed)
    job = BibtexImport.objects.get()
    member = django_user_model.objects.create_user("member", password="pw-member-1", is_staff=True)
    member_client = Client()
    member_client.force_login(member)
    assert member_client.get(status_url(job)).status_code == 403
    assert (
        editor_client.get(
            reverse(
                "admin:publications_publication_import_bibtex_status",
                args=["00000000-0000-0000-0000-000000000000"],
            )
        ).status_code
        == 404
    )


# A worker that dies ----------------------------------------------------------------------------


def worker_died(job: BibtexImport, *, state: str, phase: str, silent_for: timedelta) -> None:
    """What a killed worker leaves: its task claimed, its job mid-way, its last report old."""
    DBTaskResult.objects.update(status="RUNNING")
    BibtexImport.objects.filter(pk=job.pk).update(
        state=state, phase=phase, done=0, heartbeat_at=timezone.now() - silent_for
    )


@pytest.mark.django_db(transaction=True)
def test_an_import_whose_worker_died_is_shown_failed_and_starts_again(editor_client, settings):
    settings.BIBTEX_INLINE_IMPORT_MAX_ENTRIES = 2
    settings.BIBTEX_WORKER_TIMEOUT_SECONDS = 120
    confirm(editor_client, review(editor_client, many(5)), skip=["k00004"])
    job = BibtexImport.objects.get()

    worker_died(job, state="running", phase="Saving", silent_for=timedelta(seconds=60))
    still_heard = editor_client.get(status_url(job)).content.decode()
    assert "Running" in still_heard and "the import goes on" in still_heard

    worker_died(job, state="running", phase="Saving", silent_for=timedelta(minutes=3))
    page = editor_client.get(status_url(job)).content.decode()
    assert "Failed" in page
    assert "The worker stopped while importing" in page
    assert "0 of 4 entries were saved, each whole. Start again to import the rest." in page
    assert 'name="start-again"' in page and 'value="Start again"' in page
    assert "http-equiv" not in page and "the import goes on" not in page

    again = editor_client.post(status_url(job), {"start-again": "1"})
    assert again.status_code == 302 and again["Location"] == status_url(job)
    assert "Waiting for the worker" in editor_client.get(status_url(job)).content.decode()
    # A second click queues nothing more.
    editor_client.post(status_url(job), {"start-again": "1"})
    assert DBTaskResult.objects.filter(status="READY").count() == 1

    run_worker()
    finished = editor_client.get(status_url(job)).content.decode()
    assert "Imported 4 new publications and updated 0." in finished
    assert Publication.objects.count() == 4


@pytest.mark.django_db(transaction=True)
def test_a_worker_starting_a_task_fails_the_jobs_a_dead_worker_held(editor_client, settings):
    """A restarted worker's first task fails what the dead one held, page viewed or not."""
    settings.BIBTEX_INLINE_IMPORT_MAX_ENTRIES = 1
    confirm(editor_client, review(editor_client, many(2)))
    held = BibtexImport.objects.get()
    worker_died(held, state="running", phase="Saving", silent_for=timedelta(minutes=10))
    others = "@misc{o1, title={Other one}, year=2024}\n@misc{o2, title={Other two}, year=2024}\n"
    confirm(editor_client, review(editor_client, others))  # queued for the worker

    run_worker()

    held.refresh_from_db()
    assert (held.state, held.interrupted) == ("failed", "running")
    assert held.message.startswith("The worker stopped while importing")
    assert sorted(Publication.objects.values_list("title", flat=True)) == ["Other one", "Other two"]


@pytest.mark.django_db(transaction=True)
def test_an_import_failed_as_stopped_while_it_still_ran_saves_nothing(
    editor_client, settings, monkeypatch
):
    """Marked failed by a page view while the worker was slow, not dead: the worker's
    transaction sees it at its end and rolls back, so the message "nothing was saved" holds."""
    settings.BIBTEX_INLINE_IMPORT_MAX_ENTRIES = 1
    confirm(editor_client, review(editor_client, many(3)))
    job = BibtexImport.objects.get()
    real_import = bibtex_jobs.import_bibliography

    def slow_import(**arguments):
        worker_died(job, state="running", phase="Saving", silent_for=timedelta(minutes=10))
        editor_client.get(status_url(job))  # a look at its page meanwhile
        return real_import(**arguments)

    monkeypatch.setattr(bibtex_jobs, "import_bibliography", slow_import)
    run_import(job.pk)

    job.refresh_from_db()
    assert job.state == "failed" and job.message.startswith("The worker stopped while importing")
    assert not Publication.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_a_large_upload_whose_worker_died_while_reading_is_read_again(editor_client, settings):
    settings.BIBTEX_INLINE_REVIEW_MAX_ENTRIES = 2
    reviewing = editor_client.post(URL, {"text": many(4)})
    job = BibtexImport.objects.get()
    assert reviewing["Location"] == status_url(job)
    worker_died(job, state="reading", phase="Reading the entries", silent_for=timedelta(hours=1))

    page = editor_client.get(status_url(job)).content.decode()
    assert "The worker stopped while reading the file" in page
    editor_client.post(status_url(job), {"start-again": "1"})
    run_worker()

    reviewed = editor_client.get(status_url(job)).content.decode()
    assert "k00003" in reviewed and "Import" in reviewed


@pytest.mark.django_db(transaction=True)
def test_an_import_stopped_partway_keeps_whole_entries_and_start_again_saves_the_rest(
    editor_client, settings, monkeypatch
):
    """Saved in short transactions (issue 27): an error in the third entry keeps the two
    entries of the first batch whole, rolls back the batch it was in, says how many were
    saved, and "Start again" imports the rest, never an entry twice."""
    settings.BIBTEX_INLINE_IMPORT_MAX_ENTRIES = 2
    monkeypatch.setattr(bibtex_jobs, "SAVE_BATCH", 2)
    confirm(editor_client, review(editor_client, many(5)))
    job = BibtexImport.objects.get()
    real_create = bibtex_importing._create
    calls = []

    def failing_create(item, **arguments):
        calls.append(item.entry.key)
        if len(calls) == 4:
            raise RuntimeError("the disk is full")
        return real_create(item, **arguments)

    monkeypatch.setattr(bibtex_importing, "_create", failing_create)
    run_worker()
    job.refresh_from_db()
    assert (job.state, job.done, job.total) == ("failed", 2, 5)
    assert job.message.startswith("The import stopped on an error after saving 2 of 5 entries")
    assert sorted(Publication.objects.values_list("title", flat=True)) == ["Paper 0", "Paper 1"]
    page = editor_client.get(status_url(job)).content.decode()
    assert 'value="Start again"' in page

    monkeypatch.setattr(bibtex_importing, "_create", real_create)
    editor_client.post(status_url(job), {"start-again": "1"})
    run_worker()
    job.refresh_from_db()
    assert (job.state, job.done, job.total) == ("done", 5, 5)
    assert job.message == (
        "Imported 3 new publications and updated 0, after 2 saved before the worker stopped."
    )
    assert Publication.objects.count() == 5
    assert LogEntry.objects.filter(change_message="Imported from BibTeX.").count() == 5


@pytest.mark.django_db
def test_an_entry_whose_batch_waited_for_the_write_lock_is_still_saved(monkeypatch):
    """A batch's time counts from when it holds the transaction, and a batch always saves one
    entry at least: with no time at all, each entry is a batch of its own, none skipped."""
    monkeypatch.setattr(bibtex_importing, "SAVE_BATCH_SECONDS", 0)
    bibliography = parse_bibtex(many(7))
    batches = []
    result = bibtex_importing.import_bibliography(
        bibliography=bibliography,
        keys=[entry.key for entry in bibliography.entries],
        batch_size=3,
        batch_saved=lambda created, updated, keys: batches.append(keys),
    )
    assert len(result.created) == Publication.objects.count() == 7
    assert batches == [[f"k{number:05}"] for number in range(7)]


def first_batch_waits_out_the_lock(monkeypatch, *, meanwhile=lambda: None) -> list:
    """The import's first batch waits out SQLite's busy timeout (`meanwhile` is another
    writer's save landing as it waits); the tries it makes, each a list of keys."""
    from django.db import OperationalError

    from base import write_lock

    save_batch = bibtex_importing._save_batch
    tries: list = []

    def locked_once(*args, **kwargs):
        tries.append(kwargs["keys"])
        if len(tries) == 1:
            meanwhile()
            raise OperationalError("database is locked")
        return save_batch(*args, **kwargs)

    monkeypatch.setattr(bibtex_importing, "_save_batch", locked_once)
    monkeypatch.setattr(write_lock, "is_write_lock_timeout", lambda error: True)
    monkeypatch.setattr(write_lock, "STEP_ASIDE_SECONDS", 0)
    return tries


@pytest.mark.django_db(transaction=True)  # a batch is tried again outside any transaction
def test_a_batch_that_waited_out_the_write_lock_is_reviewed_again_before_it_is_saved(monkeypatch):
    """While a batch waited for SQLite's write lock, an editor added one of its papers: the
    batch tried again does not add it a second time (it is reviewed again as the database is
    then, as every batch is before its first try)."""
    bibliography = parse_bibtex(many(3))
    # Another writer's save lands while this batch waits for the lock, which runs out.
    tries = first_batch_waits_out_the_lock(
        monkeypatch, meanwhile=lambda: make_publication(title="Paper 1", year=2024)
    )
    result = bibtex_importing.import_bibliography(
        bibliography=bibliography, keys=[entry.key for entry in bibliography.entries], batch_size=3
    )
    assert len(tries) == 2
    assert Publication.objects.filter(title="Paper 1").count() == 1
    assert sorted(paper.title for paper in result.created) == ["Paper 0", "Paper 2"]
    assert result.left_out == ("k00001",)


@pytest.mark.django_db(transaction=True)  # a batch is tried again outside any transaction
def test_a_batch_waiting_again_for_the_write_lock_first_says_the_import_is_alive(monkeypatch):
    """Each new try of a batch whose wait for SQLite's lock ran out is preceded by a report
    (the job's heartbeat): five waits of 20 s without one made a live worker look dead."""
    bibliography = parse_bibtex(many(3))
    first_batch_waits_out_the_lock(monkeypatch)
    reports = []
    bibtex_importing.import_bibliography(
        bibliography=bibliography,
        keys=[entry.key for entry in bibliography.entries],
        batch_size=3,
        progress=lambda *report: reports.append(report),
    )
    assert reports == [
        ("Comparing with the publications", 0, 3),
        ("Saving", 0, 3),
        ("Saving", 0, 3),  # before the second try
        ("Saving", 3, 3),
    ]


@pytest.mark.django_db(transaction=True)
def test_a_progress_report_that_waited_out_the_write_lock_still_keeps_the_worker_alive(
    editor_client, settings, monkeypatch
):
    """Under `make load` a worker whose reports could not get SQLite's lock was failed as dead
    at 134 of 300 entries while it still ran. Such a report now goes to the cache, where the
    status page and the next task look before they fail a job."""
    from django.db import OperationalError
    from django.db.models import QuerySet

    settings.BIBTEX_INLINE_IMPORT_MAX_ENTRIES = 2
    settings.BIBTEX_WORKER_TIMEOUT_SECONDS = 120
    confirm(editor_client, review(editor_client, many(5)))
    job = BibtexImport.objects.get()
    worker_died(job, state="running", phase="Saving", silent_for=timedelta(minutes=3))
    update = QuerySet.update

    def locked_for_the_job(queryset, **fields):
        if queryset.model is BibtexImport:
            raise OperationalError("database is locked")
        return update(queryset, **fields)

    with monkeypatch.context() as patched:
        patched.setattr(QuerySet, "update", locked_for_the_job)
        patched.setattr(bibtex_jobs, "is_write_lock_timeout", lambda error: True)
        bibtex_jobs._reporter(job.pk, state="running")("Saving", 2, 5)

    page = editor_client.get(status_url(job)).content.decode()
    assert "The worker stopped" not in page
    assert 'class="import-count">2 of 5<' in page
    assert bibtex_jobs.fail_stalled_jobs() == 0
    job.refresh_from_db()
    assert job.state == "running"
