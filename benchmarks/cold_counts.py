"""Times the publication list's counts as the first request after an edit computes them.

    DATABASE_URL=sqlite:////tmp/copy-of-lab_bench_200000.sqlite3 \\
        .venv/bin/python benchmarks/cold_counts.py [--repeats 5] [URL ...]

On a data set that http.py built (a copy of its SQLite file, or its PostgreSQL database: this
script only reads). The counts are what pages.views.publications.listing_context keeps per change
stamp: the number of papers, the facets, the award count and the years. Each URL's counts are
computed --repeats times, nothing kept between them; the fastest run is printed whole and per
query (the database's time for a query; SQLite steps some of a query's rows only when they are
read, so its per-query times can fall short of the whole). "{member}" in a URL stands for the
member with the most papers. Prints figures only: nothing here asserts a time.
"""

import argparse
import os
import re
import sys
import time
from pathlib import Path

# The project's folder instead of this one: benchmarks/http.py would hide the standard library's.
sys.path[0] = str(Path(__file__).resolve().parent.parent)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "benchmarks.settings")
os.environ.setdefault("SECRET_KEY", "benchmark-only")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.db.models import Count  # noqa: E402
from django.test import RequestFactory  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from people.models import Person  # noqa: E402
from publications.filters import (  # noqa: E402
    PublicationFilter,
    award_count,
    facets,
    year_counts,
)
from publications.models import Publication  # noqa: E402

URLS = ["/publications/", "/publications/?author={member}"]


def counts(url: str) -> tuple[float, list[tuple[str, float]]]:
    """Milliseconds for the whole, and the queries with theirs."""
    data = RequestFactory().get(url).GET
    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        filterset = PublicationFilter(data, queryset=Publication.objects.published().for_listing())
        filterset.form.is_valid()
        filterset.qs.count()
        facets(filterset)
        award_count(filterset)
        year_counts(filterset)
        whole = (time.perf_counter() - started) * 1000
    return whole, [(summary(query["sql"]), float(query["time"]) * 1000) for query in queries]


def summary(sql: str) -> str:
    """The table and first column a query reads ("publication.year", "authorship.person_id";
    "count" for a COUNT(*)): the award count is the second "publication.count"."""
    table = re.search(r'FROM "(?:publications_|people_)?(\w+)"', sql)
    column = re.match(r'SELECT (?:"\w+"\.)?"(\w+)"', sql)
    return f"{table.group(1) if table else '?'}.{column.group(1) if column else 'count'}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("urls", nargs="*", default=URLS)
    parser.add_argument("--repeats", type=int, default=5)
    arguments = parser.parse_args()
    member = (
        Person.objects.published()
        .annotate(papers=Count("authorships"))
        .order_by("-papers", "slug")
        .first()
    )
    papers = Publication.objects.count()
    print(f"{connection.vendor}, {papers:,} papers")
    for url in arguments.urls:
        url = url.replace("{member}", member.slug if member else "")
        whole, queries = min(counts(url) for _ in range(arguments.repeats))
        timed = ", ".join(f"{name} {ms:.0f}" for name, ms in queries)
        print(f"{url}: {whole:.0f} ms, {len(queries)} queries ({timed})")


if __name__ == "__main__":
    main()
