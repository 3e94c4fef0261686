"""Background tasks (django-tasks, run by `manage.py db_worker`)."""

from django_tasks import task

from publications.bibtex_jobs import run_import


@task()
def run_bibtex_import(job_id: str) -> str:
    """A confirmed BibTeX import too large for a web request; its progress and result are on
    the BibtexImport row, which the admin's status page shows."""
    job = run_import(job_id)
    return job.state if job else "not queued"
