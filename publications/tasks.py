"""Background tasks (django-tasks, run by `manage.py db_worker`)."""

from django_tasks import task

from publications import related
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


@task()
def rebuild_related_papers() -> str:
    """The related papers' model, built anew after papers changed (publications/related.py);
    the pages serve the previous one until it is written."""
    model = related.rebuild_claimed()
    return f"{len(model.ids)} papers" if model else "too few papers for a model"
