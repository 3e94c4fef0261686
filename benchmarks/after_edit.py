"""Each page's first request after an editor saves one paper's title, in process: the figures of
benchmarks/README.md's "Counts that follow what they count" (issue 24).

A warm process (templates compiled, every kept value made by two untimed requests per page),
Django's test client, the page cache on. For each round and page: the most prolific member's
paper of the busiest year (http.py's `facts()`, the paper `after_edit` saves) is retitled and
saved in one transaction, then the page is asked for once. Printed per page, median of the
rounds: the answer's wall time and CPU time (the lagging counts made once the answer is sent
left out: they run on request_finished), the CPU time with them, the queries of the last round
(with those made after the answer) and the page cache's header.

    DJANGO_SETTINGS_MODULE=benchmarks.settings SECRET_KEY=... DEBUG=0 SITE_CACHE=1 \\
    STATIC_ROOT=<collected> CACHE_URL=redis://127.0.0.1:6379/0 \\
    DATABASE_URL=sqlite:///$TMPDIR/lab-bench-cache/lab_bench_200000_s1_<key>.sqlite3 \\
    .venv/bin/python benchmarks/after_edit.py [--rounds 5] [--pages 0,6] [--queries]
    [--profile /people/]

Every save is undone at the end (the title restored), but the data set's change history keeps
them: use a copy of a kept data set, not the one `make bench` reuses, if that matters.
"""

import argparse
import cProfile
import io
import os
import pstats
import statistics
import sys
import time
from pathlib import Path

# Run as a script, this file's folder comes first on sys.path, and benchmarks/http.py would hide
# the standard library's `http`: the project's root instead.
sys.path[0] = str(Path(__file__).resolve().parent.parent)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "benchmarks.settings")

import django  # noqa: E402

django.setup()

from django.core.signals import request_finished  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from base import site_cache  # noqa: E402
from benchmarks.http import facts  # noqa: E402
from publications.models import Publication  # noqa: E402

PAGES = [
    "/publications/",
    "/publications/?year={year}",
    "/publications/?author={member}",
    "/publications/?q={word}",
    "/publications/?venue={venue}",
    "/publications/{publication}/",
    "/people/{member}/",
    "/people/",
    "/network/",
    "/news/",
    "/",
]

# When each answer was complete (wall, CPU): request_finished, before the lagging counts.
answered: list[tuple[float, float]] = []


def note_answer(**kwargs) -> None:
    answered.append((time.perf_counter(), time.process_time()))
    site_cache._compute_deferred(**kwargs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--pages", default="", help="indexes into PAGES, e.g. 0,6")
    parser.add_argument("--queries", action="store_true", help="print the last round's SQL")
    parser.add_argument("--profile", default="", help="cProfile the last round of this page")
    arguments = parser.parse_args()

    request_finished.disconnect(dispatch_uid="site_cache_compute_deferred")
    request_finished.connect(note_answer, dispatch_uid="site_cache_compute_deferred")
    values = facts()
    pages = (
        [PAGES[int(index)] for index in arguments.pages.split(",")] if arguments.pages else PAGES
    )
    urls = [page.format(**values) for page in pages]
    client = Client()
    paper = Publication.objects.get(slug=values["publication"])
    original = paper.title
    for url in urls:
        for _ in range(2):
            assert client.get(url).status_code == 200, url
    wall: dict[str, list[float]] = {url: [] for url in urls}
    cpu: dict[str, list[float]] = {url: [] for url in urls}
    with_after: dict[str, list[float]] = {url: [] for url in urls}
    last: dict[str, tuple[int, str]] = {}
    try:
        for round in range(arguments.rounds):
            final = round == arguments.rounds - 1
            for number, url in enumerate(urls):
                paper.title = f"{original} (edit {round}.{number})"
                with transaction.atomic():
                    paper.save()
                profile = cProfile.Profile() if final and arguments.profile == url else None
                with CaptureQueriesContext(connection) as queries:
                    started, started_cpu = time.perf_counter(), time.process_time()
                    if profile:
                        profile.enable()
                    response = client.get(url)  # the test client closes it: request_finished
                    if profile:
                        profile.disable()
                    with_after[url].append((time.process_time() - started_cpu) * 1000)
                wall[url].append((answered[-1][0] - started) * 1000)
                cpu[url].append((answered[-1][1] - started_cpu) * 1000)
                last[url] = (len(queries), response.get(site_cache.CACHE_HEADER, ""))
                if profile:
                    out = io.StringIO()
                    pstats.Stats(profile, stream=out).sort_stats("cumulative").print_stats(45)
                    print(out.getvalue())
                if final and arguments.queries:
                    print(url)
                    for query in queries.captured_queries:
                        print(f"  {float(query['time']) * 1000:7.1f} ms  {query['sql'][:230]}")
                time.sleep(0.2)
    finally:
        paper.title = original
        with transaction.atomic():
            paper.save()
    print(f"load average {os.getloadavg()[0]:.1f}; median of {arguments.rounds}, ms")
    print(f"{'answer':>7} {'cpu':>6} {'after':>6} {'queries':>7} {'cache':8} page")
    for url in urls:
        count, header = last[url]
        print(
            f"{statistics.median(wall[url]):7.1f} {statistics.median(cpu[url]):6.1f} "
            f"{statistics.median(with_after[url]):6.1f} {count:7d} {header:8} {url}"
        )


if __name__ == "__main__":
    main()
