"""Times the admin's requests for a 25,000-entry BibTeX upload, the most a file may hold, now
that the worker reads and reviews it (issue 12: the review took 29.9 s in one request).

    .venv/bin/python benchmarks/bibtex_review_requests.py [--entries 25000]

In-process (Django's test client, no server) on a fresh SQLite database in a temporary folder;
the worker is `manage.py db_worker` run in this process. Prints each request's time, the
worker's, and the same review made in the request as before, once.
"""

import argparse
import logging
import os
import sys
import tempfile
import time
import warnings
from pathlib import Path

# As a script this folder comes first on sys.path, and benchmarks/http.py would hide the
# standard library's `http` (as in load.py).
sys.path[0] = str(Path(__file__).resolve().parent.parent)
WORKSPACE = tempfile.mkdtemp(prefix="lab-bibtex-review-")
os.environ["DATABASE_URL"] = f"sqlite:///{WORKSPACE}/bench.sqlite3"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("SECRET_KEY", "benchmark-only")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import reverse  # noqa: E402

from publications.models import BibtexImport  # noqa: E402

URL = reverse("admin:publications_publication_import_bibtex")


def timed(label: str, function):
    start = time.perf_counter()
    result = function()
    status = getattr(result, "status_code", "")
    print(f"  {time.perf_counter() - start:7.2f} s  {label} {status}")
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=25_000)
    entries = parser.parse_args().entries
    # The test client's host, and static files without a collectstatic step; templates are
    # not instrumented as in tests, so their time is production's.
    warnings.filterwarnings("ignore", "No directory at")
    logging.getLogger("django.request").setLevel(logging.ERROR)  # the refusal's 400
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    call_command("migrate", verbosity=0)
    client = Client()
    client.force_login(get_user_model().objects.create_superuser("bench", "bench@example.org"))
    text = "".join(
        f"@misc{{k{number:05}, title={{Paper {number}}}, year=2024}}\n" for number in range(entries)
    )
    print(f"{entries:,} entries ({len(text.encode()) / 1024 / 1024:.2f} MB), SQLite, in-process")
    timed("upload: counted and queued (request)", lambda: client.post(URL, {"text": text}))
    job = BibtexImport.objects.get()
    status = reverse("admin:publications_publication_import_bibtex_status", args=[job.pk])
    timed("status page while waiting (request)", lambda: client.get(status))
    timed(
        "read, reviewed and rendered by the worker (no request)",
        lambda: call_command(
            "db_worker", batch=True, startup_delay=False, reload=False, verbosity=0
        ),
    )
    page = timed("the review, as the worker kept it (request)", lambda: client.get(status))
    print(f"           ({len(page.content) / 1024 / 1024:.1f} MB of HTML)")
    timed(
        "confirm: queued for the worker (request)",
        lambda: client.post(URL, {"confirm": "1", "import": job.pk, "skip": ["k00000"]}),
    )
    settings.BIBTEX_INLINE_REVIEW_MAX_ENTRIES = entries
    settings.BIBTEX_INLINE_REVIEW_MAX_BYTES = len(text.encode())
    timed("the same review in the request, as before", lambda: client.post(URL, {"text": text}))
    over = text + "@misc{one_more, title={One more}}\n"
    timed(f"{entries + 1:,} entries refused (request)", lambda: client.post(URL, {"text": over}))


if __name__ == "__main__":
    main()
