"""Times the public pages as a visitor gets them: gunicorn on 127.0.0.1, DEBUG off.

    make bench                                   (SQLite, 2,000 / 20,000 / 200,000 papers)
    .venv/bin/python benchmarks/http.py --quick  (2,000 and 20,000, fewer repeats)
    DATABASE_URL=postgres://postgres@127.0.0.1:5440/postgres make bench
    .venv/bin/python benchmarks/http.py --sizes 20000 --wrk-duration 20 --output before.json

For each size it generates the data set (benchmarks/dataset.py, seeded), counts each page's
queries in-process with Django's test client (page cache off), saves each page's body as a
static file, then serves the data with two gunicorns (2 sync workers each): one with the site's
page cache off (SITE_CACHE=0), one as deployed, with it on. It times every page over fresh
connections, one request at a time: uncached, in turn with two baselines served by the same
gunicorn (the page's saved copy through whitenoise, and a bare Django view); then cached; then
the conditional request with the cached answer's ETag, in turn with whitenoise's 304 for the
copy. Then each page's first request after an editor's save of one paper that every page
shows (`after_edit`). Last, wrk loads the baselines and /publications/, cached and uncached.

Cold is the first request for a page after a fresh server start with the caches cleared (one
sample per start, --cold-starts starts); warm is after --warmup repeats. p95 is the nearest
rank, so with 5 cold samples it is the slowest one.

Data sets are cached, keyed by size, seed, the migrations and the generator's source: SQLite
files under --cache-dir; on PostgreSQL, databases named lab_bench_<size>_s<seed>_<key> created on
the server DATABASE_URL names (its own database is only used to run CREATE DATABASE). They are
kept for the next run; --fresh rebuilds them. Drop one with `DROP DATABASE lab_bench_...`.

Prints figures only: nothing here asserts a time.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if __name__ == "__main__":
    # Run as a script, this file's folder comes first on sys.path, and this file would hide
    # the standard library's `http` from everything imported after it.
    sys.path[0] = str(ROOT)

import argparse  # noqa: E402
import contextlib  # noqa: E402
import datetime  # noqa: E402
import hashlib  # noqa: E402
import http.client  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import os  # noqa: E402
import platform  # noqa: E402
import re  # noqa: E402
import shutil  # noqa: E402
import signal  # noqa: E402
import socket  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from urllib.parse import urlsplit  # noqa: E402

# The project's settings and URLconf: the benchmark's own settings and URLs wrap these.
PROJECT_SETTINGS = "config.settings"
PROJECT_URLCONF = "config.urls"

# The pages, timed in this order. Placeholders come from the generated data (see `facts`):
# {year} the year with most papers, {member} the most prolific member's slug, {venue} the
# busiest venue, {word} a title word, {publication} one of the member's papers that year.
PAGES = [
    "/publications/",
    "/publications/?year={year}",
    "/publications/?author={member}",
    "/publications/?q={word}",
    "/publications/?venue={venue}",
    "/publications/{publication}/",
    "/publications/export.bib?year={year}",
    "/people/{member}/",
    "/people/",
    # The co-author network (issue 29): the lab's, then the busiest year's.
    "/network/",
    "/network/?year_min={year}&year_max={year}",
    "/news/",
    "/",
]
# Loaded by wrk, cached and uncached, beside the bare view and the static copy of the first.
WRK_PAGES = ["/publications/"]

BARE_URL = "/__bench__/bare/"
COPY_PREFIX = "/__bench__/copy/"
BENCH_SETTINGS = "benchmarks.settings"
DEFAULT_SIZES = [2_000, 20_000, 200_000]
QUICK_SIZES = [2_000, 20_000]
WORKERS = 2
WRK = "/usr/bin/wrk"


def main() -> None:
    arguments = parse_arguments()
    if arguments.internal:
        return internal(arguments)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if arguments.nice:
        be_nice(arguments.nice)

    workspace = Path(tempfile.mkdtemp(prefix="lab-bench-"))
    try:
        started = time.perf_counter()
        environment = base_environment(workspace)
        key = run_internal(["key"], environment, workspace)["key"]
        run_internal(["collectstatic"], environment, workspace)
        log(f"static files collected, data key {key} ({time.perf_counter() - started:.1f} s)")
        report = {
            "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
            "machine": machine(),
            "seed": arguments.seed,
            "key": key,
            "nice": arguments.nice,
            "options": {
                name: getattr(arguments, name)
                for name in ["cold_starts", "repeats", "warmup", "max_seconds_per_url"]
                + ["after_edit_rounds"]
                + ["wrk_duration", "wrk_connections", "wrk_threads"]
            },
            "sizes": {},
        }
        for size in arguments.sizes:
            started = time.perf_counter()
            database_url = data_set(size, key, arguments, environment, workspace)
            generated = time.perf_counter() - started
            result = run_internal(
                ["measure", str(size)], {**environment, "DATABASE_URL": database_url}, workspace
            )
            result["phases"] = {"data set": round(generated, 1), **result["phases"]}
            report["database"] = result["database"]
            report["sizes"][str(size)] = result
            log(f"{size:,} papers done: " + phases_line(result["phases"]))
        print_report(report)
        if arguments.output:
            Path(arguments.output).write_text(json.dumps(report, indent=2) + "\n")
            log(f"raw numbers in {arguments.output}")
    finally:
        shutil.rmtree(workspace, ignore_errors=True)


def be_nice(niceness: int) -> None:
    """Sets this process's niceness, inherited by every child: the steps, gunicorn and wrk. With
    autogroup scheduling the kernel shares the CPU between sessions first, so the session's
    group gets the niceness too (they all stay in this session)."""
    os.nice(niceness)
    with contextlib.suppress(OSError):
        Path("/proc/self/autogroup").write_text(str(niceness))


def parse_arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", type=int, nargs="+", help="papers per data set")
    parser.add_argument("--quick", action="store_true", help="2,000 and 20,000, fewer repeats")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cold-starts", type=int, help="server starts for cold samples (5)")
    parser.add_argument("--repeats", type=int, help="timed requests per page when warm (30)")
    parser.add_argument("--warmup", type=int, default=5, help="untimed requests before warm")
    parser.add_argument(
        "--max-seconds-per-url",
        type=float,
        default=20,
        help="stop a slow page's warm repeats after this long (at least 5 samples)",
    )
    parser.add_argument("--after-edit-rounds", type=int, default=5, help="saves timed per page (5)")
    parser.add_argument("--wrk-duration", type=int, help="seconds per wrk run (10)")
    parser.add_argument("--wrk-connections", type=int, default=16)
    parser.add_argument("--wrk-threads", type=int, default=2)
    parser.add_argument("--output", help="save the raw numbers to this JSON file")
    parser.add_argument(
        "--cache-dir",
        default=str(Path(tempfile.gettempdir()) / "lab-bench-cache"),
        help="where generated SQLite databases are kept between runs",
    )
    parser.add_argument("--fresh", action="store_true", help="regenerate cached data sets")
    parser.add_argument(
        "--nice",
        type=int,
        default=0,
        help="run at this niceness: a negative one (root only) keeps a shared machine's other "
        "work from weighing on the figures",
    )
    # The steps below run in child processes: each data set needs its own Django set-up.
    parser.add_argument("--internal", nargs="+", help=argparse.SUPPRESS)
    parser.add_argument("--result", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.quick:
        arguments.sizes = arguments.sizes or QUICK_SIZES
        arguments.cold_starts = arguments.cold_starts or 3
        arguments.repeats = arguments.repeats or 10
        arguments.wrk_duration = arguments.wrk_duration or 5
    arguments.sizes = arguments.sizes or DEFAULT_SIZES
    arguments.cold_starts = arguments.cold_starts or 5
    arguments.repeats = arguments.repeats or 30
    arguments.wrk_duration = arguments.wrk_duration or 10
    return arguments


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def base_environment(workspace: Path) -> dict[str, str]:
    environment = dict(os.environ)
    environment.update(
        DJANGO_SETTINGS_MODULE=BENCH_SETTINGS,
        PYTHONPATH=str(ROOT),
        SECRET_KEY="benchmark-only-" + "x" * 40,
        DEBUG="0",
        DJANGO_ENV="development",
        STATIC_ROOT=str(workspace / "static"),
        # The site's page cache as one machine's app servers share it: a folder, this run's own.
        CACHE_URL=os.environ.get("BENCH_CACHE_URL") or f"file://{workspace / 'cache'}",
        BENCH_WORKSPACE=str(workspace),
        # Never used to connect: the parent needs a valid URL to load the settings.
        DATABASE_URL=f"sqlite:///{workspace / 'unused.sqlite3'}",
    )
    return environment


def run_internal(step: list[str], environment: dict[str, str], workspace: Path) -> dict:
    """Runs one step in a child process; the child stops every server it started, even when
    this process is interrupted (it gets the same Ctrl-C, or SIGTERM from here)."""
    result = workspace / "result.json"
    result.unlink(missing_ok=True)
    # The child reads the same options; only the step differs.
    options = sys.argv[1:]
    command = [sys.executable, str(Path(__file__).resolve()), *options, "--internal", *step]
    child = subprocess.Popen([*command, "--result", str(result)], env=environment, cwd=ROOT)
    try:
        code = child.wait()
    finally:
        if child.poll() is None:
            child.terminate()
            child.wait()
    if code != 0:
        raise SystemExit(f"benchmark step {' '.join(step)} failed (exit {code})")
    return json.loads(result.read_text())


def data_set(size: int, key: str, arguments, environment, workspace) -> str:
    """The URL of the data set of `size` papers: a kept SQLite file, or a kept database on the
    PostgreSQL server DATABASE_URL names; generated first when there is none."""
    server_url = os.environ.get("DATABASE_URL", "")
    name = f"lab_bench_{size}_s{arguments.seed}_{key}"
    if server_url.startswith(("postgres:", "postgresql:", "pgsql:")):
        return postgres_database(server_url, name, arguments, environment, workspace, size)
    cache_dir = Path(arguments.cache_dir)
    cache_dir.mkdir(parents=True, exist_ok=True)
    return sqlite_database(cache_dir / f"{name}.sqlite3", arguments, environment, workspace, size)


def sqlite_database(path: Path, arguments, environment, workspace, size: int) -> str:
    if arguments.fresh or (
        path.exists() and not built_as_now(f"sqlite:///{path}", environment, workspace)
    ):
        path.unlink(missing_ok=True)
    if path.exists():
        log(f"{size:,} papers: reusing {path}")
    else:
        building = path.with_suffix(".building")
        building.unlink(missing_ok=True)
        log(f"{size:,} papers: generating {path}")
        url = f"sqlite:///{building}"
        run_internal(
            ["generate", str(size)],
            {**environment, "DATABASE_URL": url},
            workspace,
        )
        building.replace(path)
    return f"sqlite:///{path}"


def postgres_database(server_url: str, name: str, arguments, environment, workspace, size) -> str:
    """A database per size on the server DATABASE_URL names: built under a temporary name and
    renamed when complete, so an interrupted build is never reused."""
    import psycopg

    building = f"{name}_building"
    with psycopg.connect(server_url, autocommit=True) as admin:
        exists = admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if arguments.fresh or (
            exists
            and not built_as_now(database_url_named(server_url, name), environment, workspace)
        ):
            admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
            exists = None
        if exists:
            log(f"{size:,} papers: reusing PostgreSQL database {name}")
        else:
            log(f"{size:,} papers: generating PostgreSQL database {name}")
            admin.execute(f'DROP DATABASE IF EXISTS "{building}"')
            admin.execute(f'CREATE DATABASE "{building}"')
            run_internal(
                ["generate", str(size)],
                {**environment, "DATABASE_URL": database_url_named(server_url, building)},
                workspace,
            )
            admin.execute(f'ALTER DATABASE "{building}" RENAME TO "{name}"')
    return database_url_named(server_url, name)


def built_as_now(url: str, environment, workspace) -> bool:
    """Whether the kept data set at `url` has exactly the migrations on disk applied, by name.
    Its key says which migrations it was built with, but a set migrated by hand with a branch's
    migration (as sections below did), which the integrator then renamed when re-chaining it,
    keeps the old name applied: the next `migrate` would run the renamed one again and fail
    (`no such index: coauthor_pair_people`). Such a set is generated anew."""
    matches = run_internal(["applied"], {**environment, "DATABASE_URL": url}, workspace)["matches"]
    if not matches:
        log(f"{url} was built or migrated with other migrations: generating it anew")
    return bool(matches)


def migrations_as_on_disk() -> bool:
    from django.db import connection
    from django.db.migrations.loader import MigrationLoader

    loader = MigrationLoader(connection)
    return set(loader.applied_migrations) == set(loader.disk_migrations)


def database_url_named(server_url: str, name: str) -> str:
    return urlsplit(server_url)._replace(path=f"/{name}").geturl()


def machine() -> dict:
    return {
        "host": platform.node(),
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "system": platform.platform(),
    }


# ---------------------------------------------------------------------------------------------
# Child steps: each has Django set up on one database.


def internal(arguments: argparse.Namespace) -> None:
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    import django

    django.setup()
    step, *rest = arguments.internal
    if step == "key":
        result = {"key": data_key()}
    elif step == "applied":
        result = {"matches": migrations_as_on_disk()}
    elif step == "collectstatic":
        from django.core.management import call_command

        call_command("collectstatic", interactive=False, verbosity=0)
        result = {}
    elif step == "generate":
        result = generate(size=int(rest[0]), seed=arguments.seed)
    elif step == "measure":
        result = measure(size=int(rest[0]), arguments=arguments)
    else:
        raise SystemExit(f"unknown step {step}")
    Path(arguments.result).write_text(json.dumps(result))


def data_key() -> str:
    """Names a data set: the migrations it was built with, by name and content, and the
    generator that filled it. By content too: a migration edited in place under its name
    (publications 0028's co-author pairs, whose foreign keys the researcher migration then
    rebuilt without their index) gave data sets of another schema the same key, and the next
    migration failed on them (`no such index: coauthor_pair_people`)."""
    from django.db.migrations.loader import MigrationLoader

    migrations = MigrationLoader(None).disk_migrations
    digest = hashlib.sha256()
    for (app, name), migration in sorted(migrations.items()):
        source = Path(sys.modules[migration.__module__].__file__ or "")
        digest.update(f"{app}.{name}\n".encode() + source.read_bytes())
    digest.update((ROOT / "benchmarks" / "dataset.py").read_bytes())
    return digest.hexdigest()[:10]


def generate(*, size: int, seed: int) -> dict:
    from django.core.management import call_command

    from benchmarks import dataset

    started = time.perf_counter()
    call_command("migrate", interactive=False, verbosity=0)
    migrated = time.perf_counter()
    summary = dataset.generate(size=size, seed=seed)
    log(
        f"  migrated in {migrated - started:.1f} s, generated {summary} "
        f"in {time.perf_counter() - migrated:.1f} s"
    )
    return {}


def facts() -> dict[str, str]:
    """The values the page table's placeholders stand for, read from the data set."""
    from django.db.models import Count

    from benchmarks.dataset import SEARCH_WORD
    from people.models import Person
    from publications.models import Publication

    published = Publication.objects.published()
    member = (
        Person.objects.published()
        .annotate(papers=Count("authorships"))
        .order_by("-papers", "slug")
        .first()
    )
    year = published.values("year").annotate(n=Count("pk")).order_by("-n", "-year")[0]["year"]
    venue = (
        published.values("venue__short_name")
        .annotate(n=Count("pk"))
        .order_by("-n")[0]["venue__short_name"]
    )
    publication = (
        published.filter(year=year, authorships__researcher=member).order_by("slug").first()
    )
    return {
        "member": member.slug,
        "year": str(year),
        "venue": venue,
        "word": SEARCH_WORD,
        "publication": publication.slug,
    }


def measure(*, size: int, arguments: argparse.Namespace) -> dict:
    from django.db import connection

    phases: dict[str, float] = {}
    # Other work on the machine shows in the figures: the load says how much there was.
    load = [round(os.getloadavg()[0], 2)]
    started = time.perf_counter()
    values = facts()
    pages = [{"page": page, "url": page.format(**values)} for page in PAGES]
    copies = Path(tempfile.mkdtemp(prefix="copies-", dir=os.environ["BENCH_WORKSPACE"]))
    count_queries_and_save_copies(pages, copies)
    phases["queries"] = time.perf_counter() - started
    database = {"vendor": connection.vendor, "version": database_version(connection)}
    connection.close()

    environment = {**os.environ, "BENCH_COPIES_ROOT": str(copies)}
    samples = {page["url"]: [] for page in pages}
    started = time.perf_counter()
    server = uncached = None
    try:
        for start in range(arguments.cold_starts):
            clear_caches()
            server = Server(environment, copies)
            for url in samples:
                samples[url].append(server.get(url).milliseconds)
            if start < arguments.cold_starts - 1:
                server.stop()
        phases["cold"] = time.perf_counter() - started
        for page in pages:
            page["cold"] = samples[page["url"]]

        started = time.perf_counter()
        uncached = Server({**environment, "SITE_CACHE": "0"}, copies)
        for page in pages:
            measure_page(server, uncached, page, arguments)
        phases["warm"] = time.perf_counter() - started

        started = time.perf_counter()
        after_edit(server, pages, values, arguments)
        phases["after edit"] = time.perf_counter() - started

        started = time.perf_counter()
        loads = [(server, BARE_URL, "bare view")]
        loads += [(server, pages[0]["copy"], f"static copy of {pages[0]['url']}")]
        loads += [(server, page.format(**values), f"{page} cached") for page in WRK_PAGES]
        loads += [(uncached, page.format(**values), f"{page} uncached") for page in WRK_PAGES]
        wrk = [
            {"url": url, "label": label, **run_wrk(target.port, url, arguments)}
            for target, url, label in loads
        ]
        phases["wrk"] = time.perf_counter() - started
        load.append(round(os.getloadavg()[0], 2))
    finally:
        for running in (server, uncached):
            if running:
                running.stop()
        shutil.rmtree(copies, ignore_errors=True)
    return {
        "size": size,
        "database": database,
        "facts": values,
        "pages": pages,
        "wrk": wrk,
        "phases": {name: round(seconds, 1) for name, seconds in phases.items()},
        "load": load,
    }


def database_version(connection) -> str:
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("SELECT sqlite_version()")
        else:
            cursor.execute("SHOW server_version")
        return cursor.fetchone()[0]


def count_queries_and_save_copies(pages: list[dict], copies: Path) -> None:
    """Renders each page in-process twice: the first answer becomes its static copy, the second
    is counted (the first may include one-off work such as creating the Lab row)."""
    from django.db import connection
    from django.test import Client, override_settings
    from django.test.utils import CaptureQueriesContext

    client = Client()
    # The work each page does when it is rendered, not a cached answer's (none).
    uncached = override_settings(SITE_CACHE=False)
    uncached.enable()
    folder = copies / COPY_PREFIX.strip("/")
    folder.mkdir(parents=True)
    for number, page in enumerate(pages):
        response = client.get(page["url"])
        body = b"".join(response) if response.streaming else response.content
        suffix = ".bib" if "bibtex" in response.get("Content-Type", "") else ".html"
        (folder / f"{number:02d}{suffix}").write_bytes(body)
        page["copy"] = f"{COPY_PREFIX}{number:02d}{suffix}"
        with CaptureQueriesContext(connection) as queries:
            counted = client.get(page["url"])
            if counted.streaming:  # a large export: its queries run as it is read
                b"".join(counted)
        page["queries"] = len(queries)
    uncached.disable()


def clear_caches() -> None:
    """Empties every configured cache, for a cold start: a file or Redis cache outlives the
    server; local memory dies with it anyway."""
    from django.core.cache import caches

    for cache in caches.all(initialized_only=False):
        cache.clear()


def measure_page(server: "Server", uncached: "Server", page: dict, arguments) -> None:
    """Times the page uncached, with its static copy and the bare view in turn, request by
    request, so that other work on the machine weighs on the page and its baselines alike; then
    cached; then revalidated with the cached answer's validators, in turn with whitenoise's
    revalidation of the copy."""
    first = server.get(page["url"])
    page["status"] = first.status
    page["bytes"] = first.size
    page["validators"] = {
        name: first.headers[name]
        for name in ("ETag", "Last-Modified", "Cache-Control")
        if name in first.headers
    }
    page["warm"], page["static"], page["bare"] = interleaved(
        uncached, [(page["url"], None), (page["copy"], None), (BARE_URL, None)], arguments
    )
    (page["cached"],) = interleaved(server, [(page["url"], None)], arguments)
    page["cache_header"] = server.get(page["url"]).headers.get("X-Site-Cache")
    copy_validators = revalidating(server.get(page["copy"]))
    page_validators = revalidating(first)
    if page_validators:
        requests = [(page["copy"], copy_validators), (page["url"], page_validators)]
        static, dynamic = interleaved(server, requests, arguments)
        page["conditional"] = {"status": server.get(page["url"], page_validators).status}
        page["conditional"]["samples"] = dynamic
    else:
        (static,) = interleaved(server, [(page["copy"], copy_validators)], arguments)
        page["conditional"] = None
    page["static_conditional"] = {
        "status": server.get(page["copy"], copy_validators).status,
        "samples": static,
    }


# Seconds between a timed request after a save and the next save: what the first request left
# to do once answered (counts shown late, counted anew) is done, as between an editor's saves.
AFTER_EDIT_PAUSE = 1.0
# Seconds between the editor's save and the visitor's request: what the server that answered
# the save does once its answer is sent (the pages it warms: base.site_cache.warm_after_answer)
# is done, as when a visitor comes a moment after an edit rather than in the same instant.
AFTER_SAVE_PAUSE = 1.0
BENCH_EDITOR = "bench-editor"


def after_edit(server: "Server", pages: list[dict], values: dict, arguments) -> None:
    """Each page's first request after an editor saves one paper, from the warm server (its
    templates compiled, its caches full): the paper is {publication}, the most prolific
    member's, so it shows on every page timed (the lists, the member's profile, its own page).
    The save is an editor's: the admin's change form, opened and saved over HTTP by a
    signed-in editor (tests/live_site.py's StaffMember), the title changed each time, answered
    by the same server. AFTER_SAVE_PAUSE later, one request for the page; AFTER_EDIT_PAUSE
    later, the next save."""
    from django.contrib.auth import get_user_model
    from django.db import connection

    from publications.models import Publication
    from tests.live_site import STAFF_PASSWORD, StaffMember

    editor, _ = get_user_model().objects.get_or_create(
        username=BENCH_EDITOR, defaults={"is_staff": True, "is_superuser": True}
    )
    editor.set_password(STAFF_PASSWORD)
    editor.save()
    paper = Publication.objects.get(slug=values["publication"])
    original = paper.title
    connection.close()
    staff = StaffMember(f"http://127.0.0.1:{server.port}", BENCH_EDITOR)
    change = f"/admin/publications/publication/{paper.pk}/change/"

    def save(title: str) -> None:
        answer = staff.save_change_form(change, "publication_form", {"title": title})
        if answer.status != 302:
            raise SystemExit(f"The editor's save answered {answer.status}:\n{answer.body[-2000:]}")

    for page in pages:
        page["after_edit"], page["after_edit_cache"] = [], []
    try:
        for round in range(arguments.after_edit_rounds):
            for number, page in enumerate(pages):
                save(f"{original} (edit {round}.{number})")
                time.sleep(AFTER_SAVE_PAUSE)
                answer = server.get(page["url"])
                page["after_edit"].append(answer.milliseconds)
                page["after_edit_cache"].append(answer.headers.get("X-Site-Cache", ""))
                time.sleep(AFTER_EDIT_PAUSE)
    finally:
        save(original)


def after_edit_median(entry: dict) -> str:
    """The median after an edit, and how many of those requests were cache hits."""
    if not entry.get("after_edit"):
        return "–"
    hits = entry.get("after_edit_cache", []).count("hit")
    return f"{ms(median(entry['after_edit']))} ({hits}/{len(entry['after_edit'])} hit)"


def interleaved(server: "Server", requests: list[tuple], arguments) -> list[list[float]]:
    """--warmup untimed rounds (fewer for a page that takes seconds), then timed rounds until
    --repeats, or until the time limit once there are 5. A round is one request for each
    (url, headers) in turn."""
    deadline = time.perf_counter() + arguments.max_seconds_per_url / 2
    for _ in range(arguments.warmup):
        for url, headers in requests:
            server.get(url, headers)
        if time.perf_counter() > deadline:
            break
    samples: list[list[float]] = [[] for _ in requests]
    deadline = time.perf_counter() + arguments.max_seconds_per_url
    rounds = 0
    while rounds < arguments.repeats and (rounds < 5 or time.perf_counter() < deadline):
        for timings, (url, headers) in zip(samples, requests, strict=True):
            timings.append(server.get(url, headers).milliseconds)
        rounds += 1
    return samples


def revalidating(answer: "Answer") -> dict[str, str]:
    """The conditional request headers an answer's validators allow; none without any."""
    headers = {}
    if "ETag" in answer.headers:
        headers["If-None-Match"] = answer.headers["ETag"]
    if "Last-Modified" in answer.headers:
        headers["If-Modified-Since"] = answer.headers["Last-Modified"]
    return headers


@dataclass(frozen=True)
class Answer:
    status: int
    size: int
    headers: http.client.HTTPMessage
    milliseconds: float


class Server:
    """gunicorn in its own process group, so stopping it stops its workers too."""

    def __init__(self, environment: dict[str, str], copies: Path, command=None):
        """`command(port)`: another server's command line (benchmarks/slow_clients.py)."""
        self.port = free_port()
        self.log = copies.parent / f"server-{self.port}.log"
        command = command(self.port) if command else [
            *(sys.executable, "-m", "gunicorn"),
            *("--bind", f"127.0.0.1:{self.port}", "--workers", str(WORKERS)),
            *("--worker-class", "sync", "--timeout", "300", "--graceful-timeout", "5"),
            *("--log-level", "warning", "--error-logfile", "-"),
            "django.core.wsgi:get_wsgi_application()",
        ]  # fmt: skip
        with open(self.log, "wb") as output:
            self.process = subprocess.Popen(
                command,
                env=environment,
                cwd=ROOT,
                stdout=output,
                stderr=subprocess.STDOUT,
                # Its own process group, to stop it whole; the same session, for --nice.
                process_group=0,
            )
        try:
            self.wait_until_ready()
        except BaseException:
            self.stop()
            raise

    def wait_until_ready(self) -> None:
        deadline = time.monotonic() + 60
        while True:
            if self.process.poll() is not None:
                raise SystemExit(f"gunicorn exited:\n{self.log.read_text()[-3000:]}")
            with contextlib.suppress(OSError):
                if self.get(BARE_URL).status == 200:
                    break
            if time.monotonic() > deadline:
                raise SystemExit(f"gunicorn did not answer:\n{self.log.read_text()[-3000:]}")
            time.sleep(0.1)
        # Both workers have loaded the URLconf before the first timed request, most likely.
        for _ in range(2 * WORKERS):
            self.get(BARE_URL)

    def get(self, url: str, headers: dict | None = None) -> Answer:
        """One request on a fresh connection, timed from connect to the last byte."""
        started = time.perf_counter()
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=300)
        try:
            connection.request("GET", url, headers={"Connection": "close", **(headers or {})})
            response = connection.getresponse()
            body = response.read()
        finally:
            connection.close()
        milliseconds = (time.perf_counter() - started) * 1000
        return Answer(response.status, len(body), response.headers, milliseconds)

    def stop(self) -> None:
        if self.process.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGINT)  # gunicorn: quick shutdown
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


WRK_LATENCY = re.compile(r"^\s+(50|99)%\s+([\d.]+)(us|ms|s|m)\s*$", re.MULTILINE)
WRK_UNITS = {"us": 0.001, "ms": 1, "s": 1000, "m": 60_000}


def run_wrk(port: int, url: str, arguments) -> dict:
    """A bounded load: --wrk-connections connections for --wrk-duration seconds. A request
    slower than the whole run counts as a timeout error rather than vanishing."""
    duration = arguments.wrk_duration
    command = [
        *(WRK, "--latency", "-t", str(arguments.wrk_threads), "-c", str(arguments.wrk_connections)),
        *("-d", f"{duration}s", "--timeout", f"{duration}s", f"http://127.0.0.1:{port}{url}"),
    ]
    output = subprocess.run(
        command, capture_output=True, text=True, timeout=duration + 60, check=True
    ).stdout
    latencies = {
        percent: float(value) * WRK_UNITS[unit]
        for percent, value, unit in WRK_LATENCY.findall(output)
    }
    socket_errors = re.search(
        r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output
    )
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    requests = re.search(r"(\d+) requests in", output)
    return {
        "requests_per_second": float(re.search(r"Requests/sec:\s+([\d.]+)", output)[1]),
        "requests": int(requests[1]) if requests else 0,
        "p50_ms": latencies.get("50"),
        "p99_ms": latencies.get("99"),
        "errors": sum(int(n) for n in socket_errors.groups()) if socket_errors else 0,
        "non_2xx": int(non_2xx[1]) if non_2xx else 0,
        "output": output,
    }


# ---------------------------------------------------------------------------------------------
# The report.


def median(samples: list[float]) -> float:
    return statistics.median(samples)


def p95(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]


def ms(value: float | None) -> str:
    if value is None:
        return "–"
    return f"{value:,.0f}" if value >= 100 else f"{value:.1f}"


def ratio(value: float) -> str:
    return f"{value:.1f}×" if value < 100 else f"{value:,.0f}×"


def table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def phases_line(phases: dict) -> str:
    return ", ".join(f"{name} {seconds:.0f} s" for name, seconds in phases.items())


def print_report(report: dict) -> None:
    sizes = list(report["sizes"].values())
    database = report["database"]
    options = report["options"]
    title = {"sqlite": "SQLite", "postgresql": "PostgreSQL"}[database["vendor"]]
    print(
        f"\n## {title} {database['version']}: {report['date']}, {report['machine']['cpus']} CPUs, "
        f"gunicorn {WORKERS} sync workers, DEBUG off, Python {report['machine']['python']}"
        + (f", niceness {report['nice']}" if report["nice"] else "")
        + "\n"
    )
    print(
        f"Milliseconds per request on a fresh loopback connection. Cold: the first request "
        f"after a server start with the caches emptied, {options['cold_starts']} starts. "
        f"Uncached: up to {options['repeats']} requests after {options['warmup']}, from a server "
        f"with the page cache off (SITE_CACHE=0). Cached: the same from the server as deployed "
        f"(a cache hit: no query). After edit: the first request after an editor's save of one "
        f"paper shown on every page, saved in the admin over HTTP (warm server, "
        f"{options.get('after_edit_rounds', 5)} saves per page, the request {AFTER_SAVE_PAUSE:g} s "
        f"after the save, the next save {AFTER_EDIT_PAUSE:g} s after the request; in brackets "
        f"how many of them were cache hits: pages warmed after the save). "
        f"304: the same request with the first answer's ETag (status, "
        f"and time over whitenoise's 304 for the copy). ×static and ×bare: uncached median over "
        f"the median of the page's saved copy served by whitenoise, and of a bare Django view, "
        f"timed in turn with the page.\n"
    )
    rows = []
    for index, page in enumerate(PAGES):
        for result in sizes:
            entry = result["pages"][index]
            status = str(entry["status"])
            if entry["conditional"] is None:
                revalidated = "no validator"
            else:
                answer = median(entry["conditional"]["samples"])
                revalidated = f"{ms(answer)} ({entry['conditional']['status']}"
                if entry["static_conditional"]:
                    whitenoise = median(entry["static_conditional"]["samples"])
                    revalidated += f", {ratio(answer / whitenoise)}"
                revalidated += ")"
            rows.append(
                [
                    page if result is sizes[0] else "",
                    f"{result['size']:,}",
                    status,
                    f"{entry['bytes'] / 1024:,.0f}",
                    str(entry["queries"]),
                    ms(median(entry["cold"])),
                    ms(p95(entry["cold"])),
                    ms(median(entry["warm"])),
                    ms(p95(entry["warm"])),
                    ms(median(entry["cached"])) if entry.get("cached") else "–",
                    after_edit_median(entry),
                    ms(p95(entry["after_edit"])) if entry.get("after_edit") else "–",
                    revalidated,
                    ratio(median(entry["warm"]) / median(entry["static"])),
                    ratio(median(entry["warm"]) / median(entry["bare"])),
                ]
            )
    header = ["page", "papers", "status", "KB", "queries", "cold median", "cold p95"]
    header += ["uncached median", "uncached p95", "cached median"]
    header += ["after edit median", "after edit p95", "304 (×whitenoise)"]
    header += ["×static", "×bare"]
    print(table(header, rows))

    if len(sizes) > 1:
        small, large = sizes[0], sizes[-1]
        print(f"\nUncached medians by size, and the ratio {large['size']:,} / {small['size']:,}:\n")
        rows = []
        for index, page in enumerate(PAGES):
            entries = [result["pages"][index] for result in sizes]
            row = [page]
            for entry in entries:
                marker = "" if entry["status"] == 200 else f" ({entry['status']})"
                row.append(ms(median(entry["warm"])) + marker)
            row.append(ratio(median(entries[-1]["cold"]) / median(entries[0]["cold"])))
            row.append(ratio(median(entries[-1]["warm"]) / median(entries[0]["warm"])))
            rows.append(row)
        header = [
            "page",
            *(f"{result['size']:,}" for result in sizes),
            "ratio cold",
            "ratio uncached",
        ]
        print(table(header, rows))

    print("\nBaselines (warm median, ms):\n")
    rows = []
    for result in sizes:
        first = result["pages"][0]
        static_304 = first["static_conditional"]
        rows.append(
            [
                f"{result['size']:,}",
                ms(median([ms for page in result["pages"] for ms in page["bare"]])),
                ms(median(first["static"])),
                ms(median(static_304["samples"])) + f" ({static_304['status']})"
                if static_304
                else "no validator",
            ]
        )
    header = ["papers", "bare view (all turns)", f"static copy of {PAGES[0]}", "its 304"]
    print(table(header, rows))

    print(
        f"\nwrk: {options['wrk_connections']} connections, {options['wrk_threads']} threads, "
        f"{options['wrk_duration']} s each:\n"
    )
    rows = [
        [
            f"{result['size']:,}",
            run["label"],
            f"{run['requests_per_second']:,.1f}",
            ms(run["p50_ms"]),
            ms(run["p99_ms"]),
            str(run["errors"] + run["non_2xx"]),
        ]
        for result in sizes
        for run in result["wrk"]
    ]
    print(table(["papers", "URL", "requests/s", "p50 ms", "p99 ms", "errors"], rows))

    print("\nSeconds per phase, and the machine's load average (1 min) before and after:\n")
    rows = [
        [
            f"{result['size']:,}",
            *(f"{result['phases'].get(name, 0):.0f}" for name in PHASES),
            " → ".join(f"{load:.1f}" for load in result["load"]),
        ]
        for result in sizes
    ]
    print(table(["papers", *PHASES, "load"], rows))


PHASES = ["data set", "queries", "cold", "warm", "after edit", "wrk"]


if __name__ == "__main__":
    main()
