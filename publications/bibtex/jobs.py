"""A BibTeX import from its review to its result, the same for the admin, inline or through
the task worker (publications/tasks.py).

A large upload is read and reviewed in the worker too (reading → reviewed), which keeps the
review page it would show, rows already rendered, so the request that shows it reads nothing.

Each step moves an import's state forward with one conditional UPDATE (reviewed → queued →
running → finished), so a double-submitted confirm, or a task run twice, finds the state
already moved and does nothing: the database decides, under any number of web workers.

A worker that dies (killed, out of memory, the machine restarted) leaves its job reading or
running. Each report of progress is its heartbeat; a job not heard of for
BIBTEX_WORKER_TIMEOUT_SECONDS is failed when its page is viewed or the next task starts, and
"Start again" queues it anew. The import saves in short transactions of SAVE_BATCH whole
entries (on SQLite a long one held the only write lock, and a sign-in during a 2,000-entry
import failed with "database is locked"); each batch records its keys on the job in its own
transaction, and commits only if the job is still running then. So a job marked failed saves
no more, its page says how many entries were saved, and "Start again" imports the rest.
"""

import logging
import uuid
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from datetime import timedelta

from django.conf import settings
from django.contrib.admin.models import ADDITION, CHANGE, LogEntry
from django.contrib.auth.models import User
from django.db import DatabaseError, OperationalError, connection
from django.db.models import F
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import mark_safe

from base import caches
from base.write_lock import is_write_lock_timeout
from publications.bibtex.importing import (
    IMPORTED,
    IMPORTED_BY_IDENTIFIER,
    SAVE_BATCH,
    ImportRefused,
    ImportResult,
    import_bibliography,
)
from publications.bibtex.limits import count_entries
from publications.bibtex.reading import Bibliography, Progress, parse_bibtex
from publications.bibtex.review import Review, review_bibliography
from publications.identifiers.stored import from_json
from publications.models import BibtexImport, Publication

logger = logging.getLogger(__name__)

State = BibtexImport.State
# A job's id: a UUID from the admin's URLs, its text from a task's arguments.
JobId = uuid.UUID | str

# A review nobody confirmed within this long is deleted with the file it holds.
REVIEW_KEPT_FOR = timedelta(days=2)
# A refusal lists at most this many problems on the status page.
PROBLEMS_SHOWN = 200
# Publications per query when the admin's history is written (SQLite bounds a query's values).
LOG_BATCH = 500
# Review rows rendered per template call, and between two reports of progress.
ROW_BATCH = 1000
WAITING = "Waiting for the worker"


class WorkerStopped(Exception):
    """The job was marked failed while this worker still ran it: its import must not commit."""


class AlreadyConfirmed(Exception):
    """The import was confirmed before: `job` says where it stands."""

    def __init__(self, job: BibtexImport) -> None:
        super().__init__(f"The import {job.pk} was already confirmed.")
        self.job = job


@dataclass(frozen=True)
class ReviewPage:
    """A review as its page shows it. Rendering 25,000 rows took 8 s of template work, so a
    large review's rows are rendered once, in the worker, and kept as HTML: like Django's
    template fragment cache, it is the output of our autoescaping template."""

    summary: str
    problems: list[str]
    can_import: bool
    importable: bool
    rows: list[str]

    @classmethod
    def of(
        cls,
        review: Review,
        *,
        skipped: Iterable[str] | None = None,
        progress: Progress | None = None,
    ) -> "ReviewPage":
        """`skipped`: the entries ticked "Leave out"; by default those the review does not
        tick (a move to another venue, an ambiguous venue), which an editor ticks in."""
        if skipped is None:
            skipped = set(review.importable_keys) - set(review.ticked_keys)
        skipped = set(skipped)
        rows: list[str] = []
        for start in range(0, len(review.entries), ROW_BATCH):
            items = review.entries[start : start + ROW_BATCH]
            context = {"items": items, "start": start, "can_import": review.can_import}
            rows.append(
                render_to_string(
                    "admin/publications/import_bibtex_review_rows.html",
                    {**context, "skipped": skipped},
                )
            )
            if progress:
                progress("Preparing the review page", start + len(items), len(review.entries))
        return cls(
            summary=review.summary(),
            problems=review.all_problems,
            can_import=review.can_import,
            importable=bool(review.importable_keys),
            rows=rows,
        )

    @classmethod
    def stored(cls, job: BibtexImport) -> "ReviewPage":
        page = cls(**job.review)
        rows: list[str] = [mark_safe(rows) for rows in page.rows]  # noqa: S308 (the docstring says why)
        return cls(**{**asdict(page), "rows": rows})


def reads_in_worker(text: str) -> bool:
    """Too large to read and review within a web request (config/settings.py)."""
    return (
        len(text.encode()) > settings.BIBTEX_INLINE_REVIEW_MAX_BYTES
        or count_entries(text) > settings.BIBTEX_INLINE_REVIEW_MAX_ENTRIES
    )


def _delete_old_reviews() -> None:
    BibtexImport.objects.filter(
        state__in=[State.READING, State.REVIEWED],
        created_at__lt=timezone.now() - REVIEW_KEPT_FOR,
    ).delete()


def record_review(
    *, text: str, review: Review, user: User, source: str = BibtexImport.Source.BIBTEX
) -> BibtexImport:
    """Keep a reviewed file until it is confirmed, with the keys that were importable then.
    `source` says what `text` holds: BibTeX, or entries read from identifiers as JSON."""
    _delete_old_reviews()
    keys = review.importable_keys if review.can_import else []
    return BibtexImport.objects.create(
        created_by=user, text=text, importable_keys=keys, source=source
    )


def read_entries(*, text: str, source: str, progress: Progress | None = None) -> Bibliography:
    """A job's entries: its BibTeX read, or the entries read from identifiers read back."""
    if source == BibtexImport.Source.IDENTIFIERS:
        return from_json(text)
    return parse_bibtex(text, progress=progress)


def queue_review(*, text: str, user: User) -> BibtexImport:
    """Keep a large upload for the worker to read and review (review_upload)."""
    _delete_old_reviews()
    return BibtexImport.objects.create(
        created_by=user, text=text, state=State.READING, phase=WAITING
    )


def review_upload(job_id: JobId) -> BibtexImport | None:
    """Read and review a large upload, recording progress, and keep its review page. None when
    it was not waiting to be read (already read, or gone)."""
    fail_stalled_jobs()
    if not BibtexImport.objects.filter(
        pk=job_id, state=State.READING, heartbeat_at__isnull=True
    ).update(heartbeat_at=timezone.now()):
        return None
    job = BibtexImport.objects.get(pk=job_id)
    progress = _reporter(job_id, state=State.READING)
    try:
        bibliography = parse_bibtex(job.text, progress=progress)
        progress("Comparing with the publications", 0, len(bibliography.entries))
        review = review_bibliography(bibliography=bibliography)
        page = ReviewPage.of(review, progress=progress)
    except WorkerStopped:
        job.refresh_from_db()
        return job
    except Exception:
        logger.exception("Reading the BibTeX upload %s failed", job_id)
        message = "Reading the file failed on an error. The server's log has it."
        return _finish(job, State.FAILED, message)
    BibtexImport.objects.filter(pk=job_id, state=State.READING).update(
        state=State.REVIEWED,
        importable_keys=review.importable_keys if review.can_import else [],
        review=asdict(page),
        phase="",
    )
    job.refresh_from_db()
    return job


def confirm_import(
    *, job_id: JobId | None, user: User, skipped: Iterable[str]
) -> BibtexImport | None:
    """Move a review of this user's to queued, leaving out `skipped`. None when there is no
    such review; AlreadyConfirmed when it had moved on already."""
    if job_id is None:
        return None
    job = BibtexImport.objects.filter(pk=job_id, created_by=user).first()
    if job is None:
        return None
    importable = set(job.importable_keys)
    skipped = sorted(set(skipped) & importable)
    moved = BibtexImport.objects.filter(pk=job.pk, state=State.REVIEWED).update(
        state=State.QUEUED,
        skipped_keys=skipped,
        phase=WAITING,
        done=0,
        total=len(importable) - len(skipped),
        review={},
    )
    job.refresh_from_db()
    if not moved:
        raise AlreadyConfirmed(job)
    return job


def chosen_keys(job: BibtexImport) -> list[str]:
    skipped = set(job.skipped_keys)
    return [key for key in job.importable_keys if key not in skipped]


def runs_in_worker(job: BibtexImport) -> bool:
    return job.total > settings.BIBTEX_INLINE_IMPORT_MAX_ENTRIES or reads_in_worker(job.text)


def run_import(job_id: JobId) -> BibtexImport | None:
    """Import a queued job once, recording progress and the result on it. None when the job
    was not queued (already run, or running elsewhere)."""
    return run_import_keeping_review(job_id)[0]


def run_import_keeping_review(job_id: JobId) -> tuple[BibtexImport | None, Review | None]:
    """run_import(), with the review that refused it, made as the database is now: the admin
    shows it again without reading the file a second time."""
    fail_stalled_jobs()
    if not BibtexImport.objects.filter(pk=job_id, state=State.QUEUED).update(
        state=State.RUNNING, phase="Reading the entries", done=0, heartbeat_at=timezone.now()
    ):
        return None, None
    job = BibtexImport.objects.get(pk=job_id)
    progress = _reporter(job_id, state=State.RUNNING)
    chosen = chosen_keys(job)
    saved = list(job.saved_keys)  # by an earlier run the worker stopped on
    saved_before = len(saved)
    remaining = [key for key in chosen if key not in set(saved)]

    def saving(phase: str, done: int, total: int) -> None:
        progress(phase, saved_before + done, len(chosen))

    def batch_saved(
        created: list[Publication], updated: list[Publication], keys: list[str]
    ) -> None:
        """In the batch's transaction: the batch commits with its record, or not at all."""
        if not BibtexImport.objects.filter(pk=job_id, state=State.RUNNING).update(
            saved_keys=[*saved, *keys],
            phase="Saving",
            done=len(saved) + len(keys),
            total=len(chosen),
            heartbeat_at=timezone.now(),
        ):
            raise WorkerStopped
        _log_in_admin_history(created, updated, user_id=job.created_by_id, source=job.source)
        saved.extend(keys)

    try:
        bibliography = read_entries(text=job.text, source=job.source, progress=progress)
        result = None
        if remaining or not saved:  # a refusal still says why when nothing is chosen
            result = import_bibliography(
                bibliography=bibliography,
                keys=remaining,
                progress=saving,
                batch_size=SAVE_BATCH,
                batch_saved=batch_saved,
                reason=import_reason(job.source),
            )
    except WorkerStopped:
        job.refresh_from_db()
        return job, None
    except ImportRefused as refused:
        problems = refused.review.all_problems
        finished = _finish(job, State.REFUSED, str(refused), problems=problems[:PROBLEMS_SHOWN])
        return finished, refused.review
    except Exception:
        logger.exception("BibTeX import %s failed", job_id)
        if saved:
            message = (
                f"The import stopped on an error after saving {len(saved)} of {len(chosen)} "
                "entries, each whole. The server's log has the error. Start again to import "
                "the rest."
            )
            return _finish(job, State.FAILED, message, interrupted=State.RUNNING), None
        message = "The import failed on an error; nothing was imported. The server's log has it."
        return _finish(job, State.FAILED, message), None
    message = result_message(result, saved_before=saved_before)
    return _finish(job, State.DONE, message, text=""), None


def _reporter(job_id: JobId, *, state: str) -> Progress:
    """Progress written on the job, with its heartbeat. Inside the import's transaction the
    row's changes are seen by no one else until it commits, so progress goes to the cache
    too (shared by the site's processes: file or Redis), where the status page reads it; the
    last report there moves the heartbeat in the transaction, which commits only if the job
    is still running."""

    def progress(phase: str, done: int, total: int) -> None:
        now = timezone.now()

        def in_the_cache() -> None:
            caches.write(
                caches.heartbeat_key(job_id),
                (now, phase, done, total),
                int(_timeout().total_seconds()) * 2,
            )

        if not connection.in_atomic_block:
            try:
                BibtexImport.objects.filter(pk=job_id).update(
                    phase=phase, done=done, total=total, heartbeat_at=now
                )
            except OperationalError as error:
                # Staff held SQLite's write lock past the busy timeout: the report goes to
                # the cache, not the import failed. Skipped, a worker waiting for the lock
                # batch after batch fell silent past the timeout and was failed as dead
                # (`make load`: at 134 of 300 entries).
                if not is_write_lock_timeout(error):
                    raise
                in_the_cache()
            return
        in_the_cache()
        if done == total and not BibtexImport.objects.filter(pk=job_id, state=state).update(
            phase=phase, done=done, total=total, heartbeat_at=now
        ):
            raise WorkerStopped

    return progress


def _timeout() -> timedelta:
    return timedelta(seconds=settings.BIBTEX_WORKER_TIMEOUT_SECONDS)


def with_latest_progress(job: BibtexImport) -> BibtexImport:
    """The job with the progress its worker reported from inside its transaction, if newer."""
    reported = caches.read(caches.heartbeat_key(job.pk)) if not job.is_finished else None
    if reported and (job.heartbeat_at is None or reported[0] > job.heartbeat_at):
        job.heartbeat_at, job.phase, job.done, job.total = reported
    return job


STOPPED_MESSAGES = {
    State.READING: (
        "The worker stopped while reading the file (nothing heard from it since {since}): "
        "nothing was imported. Start again to read it once more."
    ),
    State.RUNNING: (
        "The worker stopped while importing (nothing heard from it since {since}): {saved} of "
        "{total} entries were saved, each whole. Start again to import the rest."
    ),
}


def fail_stalled_jobs() -> int:
    """Fail every job whose worker has not reported within the timeout: the worker died. Run
    when a status page is viewed and when a worker, restarted or not, starts a task. How many
    it failed."""
    cutoff = timezone.now() - _timeout()
    failed = 0
    stalled = BibtexImport.objects.filter(state__in=STOPPED_MESSAGES, heartbeat_at__lt=cutoff).only(
        "pk", "state", "heartbeat_at", "total", "saved_keys"
    )
    for job in stalled:
        since = with_latest_progress(job).heartbeat_at
        assert since is not None  # the query asked for a heartbeat
        if since >= cutoff:  # alive, inside its transaction
            continue
        message = STOPPED_MESSAGES[State(job.state)].format(
            since=timezone.localtime(since).strftime("%Y-%m-%d %H:%M:%S"),
            saved=len(job.saved_keys),
            total=job.total,
        )
        try:
            failed += BibtexImport.objects.filter(pk=job.pk, state=job.state).update(
                state=State.FAILED,
                interrupted=job.state,
                message=message,
                finished_at=timezone.now(),
            )
        except DatabaseError:  # SQLite, a long write elsewhere: the next look will do it
            logger.warning("Could not mark the stalled BibTeX import %s failed", job.pk)
    return failed


def start_again(*, job_id: JobId) -> BibtexImport | None:
    """Queue a job the worker stopped on, from the state it stopped in. None when it is not
    such a job (started again already, or never interrupted)."""
    job = BibtexImport.objects.filter(pk=job_id, state=State.FAILED).first()
    if job is None or job.interrupted not in STOPPED_MESSAGES:
        return None
    again = State.QUEUED if job.interrupted == State.RUNNING else State.READING
    if not BibtexImport.objects.filter(pk=job.pk, state=State.FAILED).update(
        state=again,
        interrupted="",
        phase=WAITING,
        done=len(job.saved_keys) if again == State.QUEUED else 0,
        message="",
        finished_at=None,
        heartbeat_at=None,
    ):
        return None
    job.refresh_from_db()
    return job


def result_message(result: ImportResult | None, *, saved_before: int = 0) -> str:
    """What the import did, in a sentence; `saved_before`: entries a run the worker stopped on
    had saved already."""
    if result is None:
        return f"All {saved_before} entries were saved before the worker stopped."
    created, updated, venues = len(result.created), len(result.updated), len(result.venues)
    message = (
        f"Imported {created} new publication{'s' if created != 1 else ''} and updated {updated}"
    )
    if venues:
        message += f"; added {venues} venue{'s' if venues != 1 else ''}"
    if result.left_out:
        left = len(result.left_out)
        message += (
            f"; left out {left} entr{'y' if left == 1 else 'ies'} added to the site meanwhile"
        )
    if saved_before:
        message += f", after {saved_before} saved before the worker stopped"
    return message + "."


def _finish(job: BibtexImport, state: str, message: str, **fields: object) -> BibtexImport:
    values = {"state": state, "message": message, "finished_at": timezone.now(), **fields}
    if state == State.DONE:
        values["phase"], values["done"] = "Finished", F("total")
    BibtexImport.objects.filter(pk=job.pk).update(**values)
    job.refresh_from_db()
    return job


def import_reason(source: str) -> str:
    """What the history says made the versions a job saves: where its entries came from."""
    return IMPORTED_BY_IDENTIFIER if source == BibtexImport.Source.IDENTIFIERS else IMPORTED


def _log_in_admin_history(
    created: Iterable[Publication],
    updated: Iterable[Publication],
    *,
    user_id: int | None,
    source: str,
) -> None:
    """The admin's "Recent actions" and each publication's history list the import, as if
    each paper had been added or changed by hand."""
    if user_id is None:
        return
    for publications, flag, message in (
        (created, ADDITION, f"{import_reason(source)}."),
        (updated, CHANGE, import_reason(source).replace("Imported", "Updated", 1) + "."),
    ):
        pks = [publication.pk for publication in publications]
        for start in range(0, len(pks), LOG_BATCH):
            LogEntry.objects.log_actions(
                user_id=user_id,
                queryset=Publication.objects.filter(pk__in=pks[start : start + LOG_BATCH]),
                action_flag=flag,
                change_message=message,
            )
