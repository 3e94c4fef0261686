"""The public pages under load while staff save in the admin: requests per second, p99 and
errors per page, and the saves' own count, errors and p99.

    .venv/bin/python benchmarks/load.py                       (2,000 papers, SQLite, ~1 min)
    .venv/bin/python benchmarks/load.py --size 20000 --wrk-duration 20
    DATABASE_URL=postgres://postgres@127.0.0.1:5444/postgres .venv/bin/python benchmarks/load.py

The data set is benchmarks/dataset.py's (seed 1) plus the seeded profiles; the production
server (config/serve.py: granian, 2 processes of 8 threads, DEBUG off) serves it on 127.0.0.1
through benchmarks/http.py's `Server`, with the task worker beside it as `make serve` runs it
(`nice -n 10 manage.py db_worker`: it prints visitors' CV PDFs). While wrk loads each page in turn (--wrk-connections
connections, --wrk-duration seconds each), a second process signs in as an editor and saves
people and publications through the admin's forms, one after another, for the whole run
(tests/live_site.py's `StaffMember`). Then, for --attack-seconds, with the editor still saving:
--idle sockets that send nothing, --slow clients whose headers never end and --cv cache-busting
requests for the CV with the most papers (`cv.pdf?v=<n>`), while `/healthz` and `/publications/`
are probed (benchmarks/slow_clients.py's `attack`). Everything runs on 127.0.0.1 and every
server started is stopped. Prints figures only: nothing here asserts.

Last, a --import-entries BibTeX import (2,000 by default) is queued for the task worker while
--editors editors (10) save papers and people through the admin, signing in afresh every few
saves, and visitors browse the public pages; it reports the import's time, the editors' and
visitors' errors (a "database is locked" is one) and p99, and the progress the status page
showed. `--only-import` skips the pages and the attack, for that phase alone.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if __name__ == "__main__":
    # As a script this folder comes first on sys.path, and benchmarks/http.py would hide the
    # standard library's `http`.
    sys.path[0] = str(ROOT)

import argparse  # noqa: E402
import ast  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import re  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from urllib.parse import urlsplit, urlunsplit  # noqa: E402

from benchmarks.http import Server, base_environment, log, run_wrk, table  # noqa: E402
from benchmarks.slow_clients import attack, report  # noqa: E402
from config.serve import server_command  # noqa: E402

PAGES = [
    "/",
    "/publications/",
    "/publications/?year=2024",
    "/people/",
    "/publications/feed/",
    "/publications/export.bib?year=2024",
]
EDITOR = "load-editor"
IMPORTING_EDITORS = "load-importer-{}"
# As `make serve` starts the task worker: its prints yield the CPU to the web processes.
WORKER_NICE = ["nice", "-n", "10"]
PREPARE = """
from django.contrib.auth.models import User
from django.core.management import call_command
from benchmarks.http import generate
from tests.live_site import STAFF_PASSWORD
generate(size={size}, seed=1)
call_command("seed", "--force", verbosity=0)
call_command("collectstatic", interactive=False, verbosity=0)
User.objects.create_superuser({editor!r}, "load@example.org", STAFF_PASSWORD)
for number in range({editors}):
    name = {importing!r}.format(number)
    User.objects.create_superuser(name, name + "@example.org", STAFF_PASSWORD)
from django.db.models import Count
from people.models import Person
person = Person.objects.annotate(papers=Count("authorships")).order_by("-papers").first()
print(f"/people/{{person.slug}}/cv.pdf", person.papers)
"""


def main() -> None:
    arguments = parse_arguments()
    if arguments.saver:
        return save_until(arguments.saver, seconds=arguments.saver_seconds)
    # A reader that opens the database as the run ends (its -wal and -shm files appear again)
    # must not cost the run's figures: they are printed after the folder goes.
    with tempfile.TemporaryDirectory(prefix="lab-load-", ignore_cleanup_errors=True) as folder:
        workspace = Path(folder)
        environment = {
            **base_environment(workspace),
            "DATABASE_URL": database_url(workspace),
            "MEDIA_ROOT": str(workspace / "media"),
            "ALLOWED_HOSTS": "127.0.0.1",
            "LOG_LEVEL": "ERROR",
        }
        log(f"Generating {arguments.size:,} papers, the seeded profiles and an editor")
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
            cwd=ROOT, env=environment, check=True,
        )  # fmt: skip
        prepare = PREPARE.format(
            size=arguments.size,
            editor=EDITOR,
            editors=arguments.editors,
            importing=IMPORTING_EDITORS,
        )
        output = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", prepare],
            cwd=ROOT, env=environment, check=True, capture_output=True, text=True,
        ).stdout  # fmt: skip
        arguments.cv_path, arguments.cv_papers = output.split()[-2:]
        log(f"  ready in {time.perf_counter() - started:.0f} s")
        (workspace / "copies").mkdir()
        production = lambda port: server_command(host="127.0.0.1", port=port)  # noqa: E731
        server = Server(environment, workspace / "copies", command=production)
        # The task worker beside it, as `make serve` runs it (below the server's CPU priority):
        # it prints visitors' CV PDFs.
        with open(workspace / "worker.log", "wb") as worker_log:
            worker = subprocess.Popen(
                [*WORKER_NICE, sys.executable, "manage.py", "db_worker", "--no-reload", "-v0"],
                cwd=ROOT, env=environment, stdout=worker_log, stderr=subprocess.STDOUT,
            )  # fmt: skip
        try:
            rows, saves, held = (
                ([], None, None) if arguments.only_import else load(server, arguments)
            )
            imported = import_under_load(server, environment, workspace, arguments)
        finally:
            worker.terminate()
            worker.wait()
            server.stop()
            held_prints = printed_cvs(environment)
            drop_database(environment["DATABASE_URL"])
        if held is not None:
            held["prints"] = held_prints
    if saves is not None and held is not None:
        print_table(rows, saves, held, arguments)
    print_import(imported, arguments)


def parse_arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=2_000, help="papers in the data set")
    parser.add_argument("--wrk-duration", type=int, default=8, help="seconds of load per page")
    parser.add_argument("--wrk-connections", type=int, default=8)
    parser.add_argument("--wrk-threads", type=int, default=2)
    parser.add_argument("--attack-seconds", type=float, default=20)
    parser.add_argument("--idle", type=int, default=50, help="idle sockets")
    parser.add_argument("--slow", type=int, default=20, help="slow-header clients")
    parser.add_argument("--cv", type=int, default=50, help="cache-busting CV requests")
    parser.add_argument("--import-entries", type=int, default=2_000)
    parser.add_argument(
        "--import-seconds", type=float, default=3600,
        help="stop waiting for the import after this long, and report what it saw",
    )  # fmt: skip
    parser.add_argument("--editors", type=int, default=10, help="editors saving during it")
    parser.add_argument("--only-import", action="store_true", help="the import phase alone")
    parser.add_argument("--saver", help=argparse.SUPPRESS)  # the saving process: the site's URL
    parser.add_argument("--saver-seconds", type=float, help=argparse.SUPPRESS)
    return parser.parse_args()


def database_url(workspace: Path) -> str:
    """SQLite in the workspace, or a database of its own on DATABASE_URL's PostgreSQL server."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        return f"sqlite:///{workspace / 'site.sqlite3'}"
    import psycopg

    with psycopg.connect(url, autocommit=True) as server:
        server.execute("DROP DATABASE IF EXISTS lab_load WITH (FORCE)")
        server.execute("CREATE DATABASE lab_load")
    return urlunsplit(urlsplit(url)._replace(path="/lab_load"))


def printed_cvs(environment: dict[str, str]) -> dict[str, int]:
    """The CV prints the task worker was asked for during the run, by outcome."""
    count = (
        "from collections import Counter; from django_tasks_db.models import DBTaskResult; "
        "rows = DBTaskResult.objects.filter(task_path='pages.tasks.print_cv_pdf'); "
        "print(dict(Counter(rows.values_list('status', flat=True))))"
    )
    output = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", count],
        cwd=ROOT, env=environment, check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip
    return ast.literal_eval(output.strip().splitlines()[-1])


def drop_database(url: str) -> None:
    if url.startswith("postgres"):
        import psycopg

        server_url = urlunsplit(urlsplit(url)._replace(path="/postgres"))
        with psycopg.connect(server_url, autocommit=True) as server:
            server.execute("DROP DATABASE IF EXISTS lab_load WITH (FORCE)")


def load(server: Server, arguments) -> tuple[list[dict], dict, dict]:
    """wrk on each page in turn, then the clients that hold connections, while the saving
    process runs for the whole time."""
    seconds = len(PAGES) * (arguments.wrk_duration + 1) + arguments.attack_seconds + 4
    saver = subprocess.Popen(
        [sys.executable, __file__, "--saver", f"http://127.0.0.1:{server.port}",
         "--saver-seconds", str(seconds)],
        cwd=ROOT, env=os.environ, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    rows = []
    try:
        time.sleep(1)  # the editor has signed in and started saving
        for page in PAGES:
            log(f"  wrk {page}")
            rows.append({"page": page, **run_wrk(server.port, page, arguments)})
        log(f"  {arguments.idle} idle, {arguments.slow} slow-header, {arguments.cv} CV clients")
        held = attack(
            server.port, arguments.cv_path, seconds=arguments.attack_seconds,
            idle=arguments.idle, slow=arguments.slow, cv=arguments.cv,
        )  # fmt: skip
        output, _ = saver.communicate(timeout=seconds + 120)
    finally:
        if saver.poll() is None:
            saver.terminate()
            saver.wait()
    return rows, json.loads(output), {"server": "production", **held}


def save_until(url: str, *, seconds: float) -> None:
    """The second process: one editor saving admin change forms back to back."""
    from tests.live_site import StaffMember, change_pages

    editor = StaffMember(url, EDITOR)
    pages = change_pages(editor)[:40]
    timings, outcomes = [], {"saved": 0, "errors": 0}
    deadline = time.monotonic() + seconds
    number = 0
    while time.monotonic() < deadline:
        path, form_id, field = pages[number % len(pages)]
        started = time.perf_counter()
        answer = editor.save_change_form(path, form_id, {field: f"Saved under load {number}."})
        timings.append((time.perf_counter() - started) * 1000)
        outcomes["saved" if answer.status == 302 else "errors"] += 1
        number += 1
    timings.sort()
    p99 = timings[max(0, int(len(timings) * 0.99) - 1)] if timings else None
    print(json.dumps({**outcomes, "p99_ms": p99, "seconds": seconds}))


QUEUE_IMPORT = """
from pathlib import Path
from django.contrib.auth.models import User
from publications.models import BibtexImport
from publications.tasks import run_bibtex_import
text = Path({path!r}).read_text()
keys = [f"load{{number:05}}" for number in range({entries})]
job = BibtexImport.objects.create(
    created_by=User.objects.get(username={editor!r}), text=text,
    state=BibtexImport.State.QUEUED, importable_keys=keys, total=len(keys),
)
run_bibtex_import.enqueue(str(job.pk))
print(job.pk)
"""
STATUS_COUNT = re.compile(r'class="import-count">(\d+) of (\d+)<')
STATUS_STATE = re.compile(r'class="import-state"><strong>([^<]+)</strong>(?::\s*([^<]*))?')
VISITOR_PAGES = ["/", "/publications/", "/publications/?year=2024", "/people/"]


def import_bibliography_text(entries: int) -> str:
    """Papers as dblp exports them: authors, a booktitle, a DOI each; all new to the site."""
    return "".join(
        f"@inproceedings{{load{number:05}, title={{Imported Under Load {number}: On Batches}},"
        f" author={{Ada Lovelace and Import Author{number} and Grace Hopper}},"
        f" booktitle={{Proceedings of the 9th Symposium on Loads, SoL 2024}}, year=2024,"
        f" doi={{10.5555/load.{number}}}}}\n"
        for number in range(entries)
    )


def import_under_load(
    server: Server, environment: dict[str, str], workspace: Path, arguments
) -> dict:
    """Queue the import for the worker, then save as --editors editors and browse as two
    visitors until its status page says it finished."""
    import threading
    import urllib.error
    import urllib.request

    from tests.live_site import StaffMember, change_pages

    url = f"http://127.0.0.1:{server.port}"
    bib = workspace / "import.bib"
    bib.write_text(import_bibliography_text(arguments.import_entries))
    log(f"  import of {arguments.import_entries:,} entries, {arguments.editors} editors saving")
    queue = QUEUE_IMPORT.format(
        path=str(bib), entries=arguments.import_entries, editor=IMPORTING_EDITORS.format(0)
    )
    job = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", queue],
        cwd=ROOT, env=environment, check=True, capture_output=True, text=True,
    ).stdout.split()[-1]  # fmt: skip
    status_path = f"/admin/publications/publication/import-bibtex/{job}/"
    watcher = StaffMember(url, IMPORTING_EDITORS.format(0))
    pages = change_pages(watcher)[:40]
    stop = threading.Event()
    lock = threading.Lock()
    outcomes: dict[str, int] = {}
    timings: dict[str, list[float]] = {"save": [], "visit": []}

    failures: list[str] = []

    def failed(what: str) -> None:
        """A save answered otherwise than by its redirect: what it was answered, for the
        report (a status alone does not say whether it was a 500 or a form shown again)."""
        with lock:
            failures.append(what)

    def count(outcome: str, kind: str, started: float) -> None:
        with lock:
            outcomes[outcome] = outcomes.get(outcome, 0) + 1
            if kind:
                timings[kind].append((time.perf_counter() - started) * 1000)

    def edit(number: int) -> None:
        saves = 0
        member = None
        while not stop.is_set():
            started = time.perf_counter()
            if member is None or saves % 5 == 0:  # sign in afresh every five saves
                try:
                    member = StaffMember(url, IMPORTING_EDITORS.format(number))
                except (RuntimeError, urllib.error.URLError, TimeoutError):
                    count("sign-in errors", "save", started)
                    member = None
                    continue
                count("sign-ins", "", started)
            path, form_id, field = pages[(number * 7 + saves) % len(pages)]
            try:
                answer = member.save_change_form(
                    path, form_id, {field: f"Saved during import {saves}."}
                )
                outcome = "saves" if answer.status == 302 else "save errors"
                if answer.status != 302:
                    failed(f"{path}: {answer.status} {' '.join(answer.body.split())[:300]}")
            except (urllib.error.URLError, TimeoutError) as error:
                # No answer within the client's 60 s: an error, and the editor goes on (the
                # thread died before, and the run went on with fewer editors, unsaid).
                outcome = "save errors"
                failed(f"{path}: {error!r}")
            count(outcome, "save", started)
            saves += 1

    def visit(number: int) -> None:
        visits = 0
        while not stop.is_set():
            started = time.perf_counter()
            try:
                with urllib.request.urlopen(
                    url + VISITOR_PAGES[(number + visits) % len(VISITOR_PAGES)], timeout=60
                ) as response:
                    response.read()
                count("visits", "visit", started)
            except (urllib.error.URLError, TimeoutError):
                count("visit errors", "visit", started)
            visits += 1

    threads = [threading.Thread(target=edit, args=(number,)) for number in range(arguments.editors)]
    threads += [threading.Thread(target=visit, args=(number,)) for number in range(2)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    try:
        seen, state, message = watch_import(
            watcher, status_path, seconds=arguments.import_seconds, count=count
        )
    finally:
        stop.set()
        for thread in threads:
            thread.join()
    seconds = time.monotonic() - started
    locked = sum(
        path.read_text(errors="replace").count("database is locked")
        for path in workspace.rglob("*.log")
    )
    return {
        "seconds": seconds,
        "state": state,
        "message": message,
        "outcomes": outcomes,
        "timings": timings,
        "progress": seen,
        "locked": locked,
        "failures": failures,
    }


def watch_import(watcher, status_path: str, *, seconds: float, count) -> tuple[list, str, str]:
    """The import's status page every 2 s until it says the import ended, or for `seconds`:
    the counts it showed, its last state and its closing message."""
    import urllib.error

    started = time.monotonic()
    seen: list[tuple[int, int]] = []
    state = message = ""
    while time.monotonic() - started < seconds:
        asked = time.perf_counter()
        try:
            page = watcher.get(status_path).body
        except (urllib.error.URLError, TimeoutError):
            count("status page errors", "", asked)
            continue
        if found := STATUS_COUNT.search(page):
            seen.append((int(found[1]), int(found[2])))
        state = (STATUS_STATE.search(page) or [None, ""])[1]
        if state not in ("Waiting for the worker", "Running"):
            # A finished import's result, or a failed one's error note.
            ending = re.search(r'class="(?:import-result|errornote)">(.*?)</p>', page, re.S)
            message = " ".join(re.sub(r"<[^>]+>", " ", ending[1]).split()) if ending else ""
            break
        time.sleep(2)
    return seen, state, message


def p99(values: list[float]) -> float:
    values = sorted(values)
    return values[max(0, int(len(values) * 0.99) - 1)] if values else 0.0


def print_import(imported: dict, arguments) -> None:
    outcomes = imported["outcomes"]
    errors = sum(count for name, count in outcomes.items() if "errors" in name)
    progress = imported["progress"]
    consistent = all(0 <= done <= total for done, total in progress)
    print(
        f"\nA {arguments.import_entries:,}-entry BibTeX import in the task worker while "
        f"{arguments.editors} editors save (signing in afresh every 5 saves) and 2 visitors "
        f"browse: {imported['state'] or 'unknown'} in {imported['seconds']:.0f} s "
        f"({arguments.import_entries / max(imported['seconds'], 1):.1f} entries/s). "
        f"{imported['message']}"
    )
    print(
        f"  editors: {outcomes.get('saves', 0)} saves, {outcomes.get('sign-ins', 0)} sign-ins, "
        f"{outcomes.get('save errors', 0) + outcomes.get('sign-in errors', 0)} errors, "
        f"p99 {p99(imported['timings']['save']):,.0f} ms"
    )
    for failure in imported["failures"][:5]:
        print(f"    {failure}")
    print(
        f"  visitors: {outcomes.get('visits', 0)} pages, {outcomes.get('visit errors', 0)} "
        f"errors, p99 {p99(imported['timings']['visit']):,.0f} ms"
    )
    print(
        f"  errors in all: {errors}; 'database is locked' in the logs: {imported['locked']}; "
        f"progress seen {len(progress)} times, last {progress[-1] if progress else None}, "
        f"{'always' if consistent else 'NOT always'} within its total"
    )


def print_table(rows: list[dict], saves: dict, held: dict, arguments) -> None:
    database = (
        "PostgreSQL" if os.environ.get("DATABASE_URL", "").startswith("postgres") else "SQLite"
    )
    print(
        f"\n{arguments.size:,} papers on {database}; wrk {arguments.wrk_threads} threads, "
        f"{arguments.wrk_connections} connections, {arguments.wrk_duration} s per page; "
        "the production server (config/serve.py); an editor saving in the admin throughout.\n"
    )
    print(
        table(
            ["page", "requests/s", "p50 ms", "p99 ms", "errors"],
            [
                [
                    row["page"],
                    f"{row['requests_per_second']:,.1f}",
                    f"{row['p50_ms']:,.1f}",
                    f"{row['p99_ms']:,.1f}",
                    str(row["errors"] + row["non_2xx"]),
                ]
                for row in rows
            ],
        )
    )
    print(
        f"\nAdmin saves meanwhile: {saves['saved']} saved, {saves['errors']} errors, "
        f"p99 {saves['p99_ms'] or 0:,.0f} ms over {saves['seconds']:.0f} s."
    )
    print(
        f"\nFor {arguments.attack_seconds:.0f} s: {arguments.idle} idle sockets, {arguments.slow} "
        f"slow-header clients and {arguments.cv} cache-busting requests for a CV of "
        f"{arguments.cv_papers} papers, with the editor still saving.\n"
    )
    print(report([held]))
    print(f"\nCV prints queued for the task worker: {held['prints'] or 'none'}.")


if __name__ == "__main__":
    main()
