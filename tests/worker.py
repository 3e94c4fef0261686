"""The task worker in tests: `manage.py db_worker` itself, run in the test's own process."""

from unittest import mock

from django.core.management import call_command


def run_worker() -> None:
    """`manage.py db_worker` until the queue is empty. The worker closes old connections
    between tasks, as a long-running process should; inside a test's transaction that would
    close the test's own connection (SQLite's in-memory database ignores it, PostgreSQL does
    not), so here it leaves the connection alone."""
    with mock.patch("django_tasks_db.management.commands.db_worker.close_old_connections"):
        call_command("db_worker", batch=True, startup_delay=False, reload=False, verbosity=0)


def visitor_pdf(client, path: str):
    """A visitor's PDF (base/pdf_renders.py): asked for, which queues its print, printed by
    the worker, asked for again."""
    response = client.get(path)
    if response.status_code == 503:
        run_worker()
        response = client.get(path)
    return response
