"""Times a paper's admin page with 20, 1,000 and 5,000 authors, and counts its queries.

    .venv/bin/python benchmarks/admin_authors.py [--sizes 20 1000 5000] [--runs 3]

The author rows are shown a page at a time (base/ordered_admin.py); this prints how long
the first page and the last page take, and a save that moves the last author to first place.
A fresh SQLite database in a temporary folder, or the PostgreSQL database DATABASE_URL names.
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

# As a script this folder comes first on sys.path, and benchmarks/http.py would hide the
# standard library's `http`.
sys.path[0] = str(Path(__file__).resolve().parent.parent)
import benchmarks.standalone  # noqa: E402, F401  (sets Django up)

# isort: split
from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402

from base.ordered_admin import ROWS_PER_PAGE  # noqa: E402
from people.models import Person  # noqa: E402
from publications.models import Authorship, Publication  # noqa: E402
from tests.admin_pages import change_form_data  # noqa: E402


def paper_with(authors: int) -> Publication:
    paper = Publication.objects.create(title=f"{authors} authors", slug=f"authors-{authors}")
    member = Person.objects.create(name=f"Member of {authors}", slug=f"member-{authors}")
    Authorship.objects.bulk_create(
        Authorship(
            publication=paper,
            position=number,
            name=f"Author {number}",
            person=member if number % 25 == 1 else None,
        )
        for number in range(1, authors + 1)
    )
    return paper


def timed(runs: int, request, *args) -> tuple[float, int]:
    times, queries = [], 0
    for _ in range(runs):
        with CaptureQueriesContext(connection) as captured:
            start = time.perf_counter()
            response = request(*args)
            times.append(time.perf_counter() - start)
        assert response.status_code in (200, 302), response.status_code
        queries = len(captured)
    return statistics.median(times), queries


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[20, 1000, 5000])
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    setup_test_environment()  # responses keep their template context (to post a form back)
    settings.ALLOWED_HOSTS = ["*"]
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    call_command("migrate", verbosity=0)
    editor = get_user_model().objects.create_superuser("bench", "bench@example.org", "unused")
    client = Client()
    client.force_login(editor)
    print(f"database: {connection.vendor}, {ROWS_PER_PAGE} author rows a page")
    for size in options.sizes:
        paper = paper_with(size)
        url = f"/admin/publications/publication/{paper.pk}/change/"
        last_page = (size - 1) // ROWS_PER_PAGE + 1
        client.get(url)  # templates compiled, caches warm
        last_url = f"{url}?authorships-page={last_page}"
        first, first_queries = timed(options.runs, client.get, url)
        last, _ = timed(options.runs, client.get, last_url)
        page = client.get(last_url)
        data = change_form_data(page)
        rows = len(page.context["inline_admin_formsets"][0].formset.initial_forms)
        data[f"authorships-{rows - 1}-position"] = "1"
        save, _ = timed(1, client.post, last_url, data)
        first_name = paper.authorships.order_by("position").first().name
        print(
            f"{size:>6} authors: first page {first * 1000:7.0f} ms ({first_queries} queries), "
            f"last page {last * 1000:7.0f} ms, moving the last author first {save * 1000:7.0f} ms "
            f"(now first: {first_name})"
        )


if __name__ == "__main__":
    main()
