"""Times the department's pages over a small and a large generated department, and counts
their queries.

    .venv/bin/python benchmarks/department_pages.py [--runs 15]

The departments are tests/department.py's (bulk inserts): 2 groups, 6 people and 20 papers;
5 groups, 60 people and 2,000 papers; 20 groups, 300 people and 20,000 papers. Each gets a fresh
SQLite database in a temporary folder (or the PostgreSQL database DATABASE_URL names, emptied
first); each URL is fetched through Django's test client and the median of the timed runs is
printed with the query count.
"""

import argparse
import sys
import time
from pathlib import Path

# As a script this folder comes first on sys.path, and benchmarks/http.py would hide the
# standard library's `http`.
sys.path[0] = str(Path(__file__).resolve().parent.parent)
import benchmarks.standalone  # noqa: E402, F401  (sets Django up)

# isort: split
from django.core.management import call_command  # noqa: E402

from benchmarks.list_pages import measure, served_client  # noqa: E402
from tests.department import build_department  # noqa: E402

SIZES = [
    {"groups": 2, "people": 6, "papers": 20},
    {"groups": 5, "people": 60, "papers": 2000},
    {"groups": 20, "people": 300, "papers": 20000},
]
URLS = [
    "/groups/",
    "/groups/group-1/",
    "/groups/group-1/?venue=V1&year_min=2016",
    "/publications/",
    "/publications/?group=group-1&area=area-1",
    "/people/",
    "/people/?group=group-1",
    "/areas/area-0/",
    "/people/member-000/",
    "/search/?q=group",  # people, groups (build_department names them "Group N"), papers, news
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    arguments = parser.parse_args()

    client = served_client(runs=arguments.runs)
    for size in SIZES:
        call_command("flush", "--noinput", verbosity=0)
        started = time.perf_counter()
        build_department(**size)
        print(
            f"\n{size['groups']} groups, {size['people']} people, {size['papers']} papers "
            f"(built in {time.perf_counter() - started:.1f} s)"
        )
        for url in URLS:
            milliseconds, queries = measure(client, url, arguments.runs)
            print(f"  {milliseconds:8.1f} ms  {queries:3d} queries  {url}")


if __name__ == "__main__":
    main()
