"""Background tasks (django-tasks, run by `manage.py db_worker`)."""

from django_tasks import task

from publications.bibtex import review_upload, run_import


@task()
def run_bibtex_import(job_id: str) -> str:
    """A confirmed BibTeX import too large for a web request; its progress and result are on
    the BibtexImport row, which the admin's status page shows."""
    job = run_import(job_id)
    return job.state if job else "not queued"


@task()
def review_bibtex_upload(job_id: str) -> str:
    """An upload too large to read and review within a web request; the status page shows its
    progress, then its review."""
    job = review_upload(job_id)
    return job.state if job else "not waiting to be read"
