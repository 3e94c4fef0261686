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
from django.db.models import Count
from people.models import Person
person = Person.objects.annotate(papers=Count("authorships")).order_by("-papers").first()
print(f"/people/{{person.slug}}/cv.pdf", person.papers)
"""


def main() -> None:
    arguments = parse_arguments()
    if arguments.saver:
        return save_until(arguments.saver, seconds=arguments.saver_seconds)
    with tempfile.TemporaryDirectory(prefix="lab-load-") as folder:
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
        prepare = PREPARE.format(size=arguments.size, editor=EDITOR)
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
            rows, saves, held = load(server, arguments)
        finally:
            worker.terminate()
            worker.wait()
            server.stop()
            held_prints = printed_cvs(environment)
            drop_database(environment["DATABASE_URL"])
        held["prints"] = held_prints
    print_table(rows, saves, held, arguments)


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
