"""A BibTeX import from its review to its result, the same for the admin, inline or through
the task worker (publications/tasks.py).

Each step moves an import's state forward with one conditional UPDATE (reviewed → queued →
running → finished), so a double-submitted confirm, or a task run twice, finds the state
already moved and does nothing: the database decides, under any number of web workers.
"""

import logging
from collections.abc import Iterable
from datetime import timedelta

from django.contrib.admin.models import ADDITION, CHANGE, LogEntry
from django.db.models import F
from django.utils import timezone

from publications.bibtex import ImportRefused, ImportResult, Review, import_bibtex
from publications.models import BibtexImport, Publication

logger = logging.getLogger(__name__)

State = BibtexImport.State
# A review nobody confirmed within this long is deleted with the file it holds.
REVIEW_KEPT_FOR = timedelta(days=2)
# A refusal lists at most this many problems on the status page.
PROBLEMS_SHOWN = 200
# Publications per query when the admin's history is written (SQLite bounds a query's values).
LOG_BATCH = 500


class AlreadyConfirmed(Exception):
    """The import was confirmed before: `job` says where it stands."""

    def __init__(self, job: BibtexImport):
        super().__init__(f"The import {job.pk} was already confirmed.")
        self.job = job


def record_review(*, text: str, review: Review, user) -> BibtexImport:
    """Keep a reviewed file until it is confirmed, with the keys that were importable then."""
    BibtexImport.objects.filter(
        state=State.REVIEWED, created_at__lt=timezone.now() - REVIEW_KEPT_FOR
    ).delete()
    keys = review.importable_keys if review.can_import else []
    return BibtexImport.objects.create(created_by=user, text=text, importable_keys=keys)


def confirm_import(*, job_id, user, skipped: Iterable[str]) -> BibtexImport | None:
    """Move a review of this user's to queued, leaving out `skipped`. None when there is no
    such review; AlreadyConfirmed when it had moved on already."""
    job = BibtexImport.objects.filter(pk=job_id, created_by=user).first()
    if job is None:
        return None
    importable = set(job.importable_keys)
    skipped = sorted(set(skipped) & importable)
    moved = BibtexImport.objects.filter(pk=job.pk, state=State.REVIEWED).update(
        state=State.QUEUED,
        skipped_keys=skipped,
        phase="Waiting for the worker",
        total=len(importable) - len(skipped),
    )
    job.refresh_from_db()
    if not moved:
        raise AlreadyConfirmed(job)
    return job


def chosen_keys(job: BibtexImport) -> list[str]:
    skipped = set(job.skipped_keys)
    return [key for key in job.importable_keys if key not in skipped]


def run_import(job_id) -> BibtexImport | None:
    """Import a queued job once, recording progress and the result on it. None when the job
    was not queued (already run, or running elsewhere)."""
    if not BibtexImport.objects.filter(pk=job_id, state=State.QUEUED).update(
        state=State.RUNNING, phase="Reading the entries", done=0
    ):
        return None
    job = BibtexImport.objects.get(pk=job_id)

    def progress(phase: str, done: int, total: int) -> None:
        BibtexImport.objects.filter(pk=job_id).update(phase=phase, done=done, total=total)

    try:
        result = import_bibtex(text=job.text, keys=chosen_keys(job), progress=progress)
    except ImportRefused as refused:
        problems = refused.review.all_problems
        return _finish(job, State.REFUSED, str(refused), problems=problems[:PROBLEMS_SHOWN])
    except Exception:
        logger.exception("BibTeX import %s failed", job_id)
        message = "The import failed on an error; nothing was imported. The server's log has it."
        return _finish(job, State.FAILED, message)
    _log_in_admin_history(result, user_id=job.created_by_id)
    return _finish(job, State.DONE, result_message(result), text="")


def result_message(result: ImportResult) -> str:
    created, updated, venues = len(result.created), len(result.updated), len(result.venues)
    message = (
        f"Imported {created} new publication{'s' if created != 1 else ''} and updated {updated}"
    )
    if venues:
        message += f"; added {venues} venue{'s' if venues != 1 else ''}"
    return message + "."


def _finish(job: BibtexImport, state: str, message: str, **fields) -> BibtexImport:
    fields = {"state": state, "message": message, "finished_at": timezone.now(), **fields}
    if state == State.DONE:
        fields["phase"], fields["done"] = "Finished", F("total")
    BibtexImport.objects.filter(pk=job.pk).update(**fields)
    job.refresh_from_db()
    return job


def _log_in_admin_history(result: ImportResult, *, user_id: int | None) -> None:
    """The admin's "Recent actions" and each publication's history list the import, as if
    each paper had been added or changed by hand."""
    if user_id is None:
        return
    for publications, flag, message in (
        (result.created, ADDITION, "Imported from BibTeX."),
        (result.updated, CHANGE, "Updated from BibTeX."),
    ):
        pks = [publication.pk for publication in publications]
        for start in range(0, len(pks), LOG_BATCH):
            LogEntry.objects.log_actions(
                user_id=user_id,
                queryset=Publication.objects.filter(pk__in=pks[start : start + LOG_BATCH]),
                action_flag=flag,
                change_message=message,
            )
