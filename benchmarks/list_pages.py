"""Times the list pages over 20 and over 20,000 publications, and counts their queries.

    make bench          (or: .venv/bin/python benchmarks/list_pages.py [--sizes 20 20000])

Each size gets a fresh SQLite database in a temporary folder (or the PostgreSQL database that
DATABASE_URL names, emptied first), filled with bulk inserts; each URL is fetched through
Django's test client, and the median of the timed runs is printed with the query count.
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
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from news.models import NewsItem  # noqa: E402
from people.models import Person  # noqa: E402
from publications.models import Authorship, Publication, PublicationAward, Venue  # noqa: E402

URLS = [
    "/publications/",
    "/publications/?venue=V3&year=2015",
    "/publications/?q=paper+7&type=conference-paper",
    "/publications/?author=member-1",
    "/people/member-1/",
    "/people/",
    "/news/",
    "/",
]
WORDS = [
    "scalable",
    "systems",
    "learning",
    "network",
    "cache",
    "serverless",
    "training",
    "scheduling",
]


def fill(size: int) -> None:
    call_command("flush", "--noinput", verbosity=0)
    members = Person.objects.bulk_create(
        Person(name=f"Member {number}", slug=f"member-{number}") for number in range(30)
    )
    venues = Venue.objects.bulk_create(
        Venue(short_name=f"V{number}", full_name=f"Venue {number}") for number in range(40)
    )
    publications = Publication.objects.bulk_create(
        Publication(
            title=f"Paper {number} on {WORDS[number % len(WORDS)]} {WORDS[(number * 7) % len(WORDS)]}",
            slug=f"paper-{number}",
            year=2000 + number % 26,
            venue=venues[number % len(venues)],
            type=Publication.Type.CONFERENCE_PAPER if number % 5 else Publication.Type.PREPRINT,
        )
        for number in range(size)
    )
    Authorship.objects.bulk_create(
        Authorship(
            publication=publication,
            position=position,
            name=members[(index + position) % len(members)].name
            if position < 3
            else f"Author {index}-{position}",
            person=members[(index + position) % len(members)] if position < 3 else None,
        )
        for index, publication in enumerate(publications)
        for position in range(1, 7)
    )
    PublicationAward.objects.bulk_create(
        PublicationAward(publication=publication, position=1, name="Best Paper")
        for publication in publications[::50]
    )
    NewsItem.objects.bulk_create(
        NewsItem(title=f"News {number}", slug=f"news-{number}", date=f"{2000 + number % 26}")
        for number in range(min(size, 2000))
    )


def measure(client: Client, url: str, runs: int) -> tuple[float, int]:
    client.get(url)  # warm caches and the lazy Lab row
    timings = []
    for _ in range(runs):
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            response = client.get(url)
            timings.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200, (url, response.status_code)
    return statistics.median(timings), len(queries)


def served_client(*, runs: int) -> Client:
    """A test client over the migrated benchmark database, serving static files without the
    manifest (nothing is collected); says which database it measures, and how."""
    settings.ALLOWED_HOSTS = ["testserver"]
    settings.STORAGES["staticfiles"] = {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
    }
    call_command("migrate", verbosity=0)
    print(f"database: {connection.vendor}; median of {runs} runs per URL")
    return Client()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[20, 20_000])
    parser.add_argument("--runs", type=int, default=15)
    arguments = parser.parse_args()

    client = served_client(runs=arguments.runs)
    results = {}
    for size in arguments.sizes:
        started = time.perf_counter()
        fill(size)
        print(f"\n{size} publications (filled in {time.perf_counter() - started:.1f} s)")
        for url in URLS:
            milliseconds, queries = measure(client, url, arguments.runs)
            results[(size, url)] = milliseconds
            print(f"  {milliseconds:8.1f} ms  {queries:3d} queries  {url}")
    if len(arguments.sizes) == 2:
        small, large = arguments.sizes
        print(f"\nratio {large} / {small}:")
        for url in URLS:
            print(f"  {results[(large, url)] / results[(small, url)]:6.2f}x  {url}")


if __name__ == "__main__":
    main()
