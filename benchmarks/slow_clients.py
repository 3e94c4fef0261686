"""Idle sockets, slow-header clients and cache-busting CV requests against an app server, while
`/healthz` and `/publications/` are probed: what each candidate production server does with
clients that hold connections (docs/decisions/production-server.md).

    .venv/bin/python benchmarks/slow_clients.py                  (every candidate, ~4 min)
    .venv/bin/python benchmarks/slow_clients.py --servers production gunicorn-sync

The data set is benchmarks/dataset.py's (2,000 papers, seed 1) plus the seeded profiles, on
SQLite; the CV requested is that of the person with the most papers. For --seconds, from the
start: --idle sockets connect and send nothing; --slow clients send a request line and then one
header line every 2 s, never finishing; --cv clients each ask once for `cv.pdf?v=<n>` (a new
parameter each, as a cache-busting flood does), follow its redirect and, answered 503, ask once
more after its Retry-After. Meanwhile `/healthz` is asked every 0.25 s and `/publications/`
every 0.5 s, each on a new connection with a 5 s time-out, from a process of their own.
Everything runs on 127.0.0.1, every loop is bounded and every server started is
stopped. Prints figures only: nothing here asserts. benchmarks/load.py runs `attack` too.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if __name__ == "__main__":
    # As a script this folder comes first on sys.path, and benchmarks/http.py would hide the
    # standard library's `http`.
    sys.path[0] = str(ROOT)

import argparse  # noqa: E402
import contextlib  # noqa: E402
import http.client  # noqa: E402
import json  # noqa: E402
import socket  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402
from collections.abc import Callable  # noqa: E402

from benchmarks.http import Server, base_environment, log, p95, table  # noqa: E402
from config.serve import server_command  # noqa: E402

PROBE_TIMEOUT = 5.0
CV_TIMEOUT = 150.0

# Each candidate: its command for a port. The production one is config/serve.py's, as
# `make serve` and the README run it; the others are what it was chosen against.
CANDIDATES: dict[str, Callable[[int], list[str]]] = {
    "gunicorn-sync": lambda port: [
        *(sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{port}"),
        *("--workers", "3", "--log-level", "warning"),
        "django.core.wsgi:get_wsgi_application()",
    ],
    "gunicorn-gthread": lambda port: [
        *(sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{port}"),
        *("--workers", "2", "--worker-class", "gthread", "--threads", "8"),
        *("--log-level", "warning", "django.core.wsgi:get_wsgi_application()"),
    ],
    "uvicorn-asgi": lambda port: [
        *(sys.executable, "-m", "uvicorn", "--host", "127.0.0.1", "--port", str(port)),
        *("--workers", "2", "--log-level", "warning", "--timeout-keep-alive", "5"),
        *("--factory", "django.core.asgi:get_asgi_application"),
    ],
    "production": lambda port: server_command(host="127.0.0.1", port=port),
}
PREPARE = """
from django.core.management import call_command
from django.db.models import Count
from benchmarks.http import generate
from people.models import Person
generate(size={size}, seed=1)
call_command("seed", "--force", verbosity=0)
call_command("collectstatic", interactive=False, verbosity=0)
person = Person.objects.annotate(papers=Count("authorships")).order_by("-papers").first()
print(f"/people/{{person.slug}}/cv.pdf", person.papers)
"""


def main() -> None:
    if sys.argv[1:2] == ["--probe"]:
        return probe_for(int(sys.argv[2]), float(sys.argv[3]))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--servers", nargs="+", choices=list(CANDIDATES), default=list(CANDIDATES))
    parser.add_argument("--size", type=int, default=2_000)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--idle", type=int, default=50)
    parser.add_argument("--slow", type=int, default=20)
    parser.add_argument("--cv", type=int, default=50)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="lab-slow-") as folder:
        workspace = Path(folder)
        environment = {
            **base_environment(workspace),
            "DATABASE_URL": f"sqlite:///{workspace / 'site.sqlite3'}",
            "MEDIA_ROOT": str(workspace / "media"),
            "ALLOWED_HOSTS": "127.0.0.1",
            "LOG_LEVEL": "ERROR",
        }
        log(f"Generating {arguments.size:,} papers and the seeded profiles")
        output = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", PREPARE.format(size=arguments.size)],
            cwd=ROOT, env=environment, check=True, capture_output=True, text=True,
        ).stdout  # fmt: skip
        cv_path, papers = output.split()[-2:]
        log(f"  the CV: {cv_path} ({papers} papers)")
        (workspace / "copies").mkdir()
        rows = []
        for name in arguments.servers:
            log(f"  {name}")
            # A cache of its own for each, so that each renders the CV.
            environment["CACHE_URL"] = f"file://{workspace / ('cache-' + name)}"
            server = Server(environment, workspace / "copies", command=CANDIDATES[name])
            try:
                figures = attack(
                    server.port, cv_path, seconds=arguments.seconds, idle=arguments.idle,
                    slow=arguments.slow, cv=arguments.cv,
                )  # fmt: skip
                rows.append({"server": name, **figures})
            finally:
                server.stop()
    print(
        f"\n{arguments.size:,} papers on SQLite, CV of {papers} papers; for "
        f"{arguments.seconds:.0f} s: {arguments.idle} idle sockets, {arguments.slow} slow-header "
        f"clients, {arguments.cv} cache-busting CV requests.\n"
    )
    print(report(rows))


def attack(port: int, cv_path: str, *, seconds: float, idle: int, slow: int, cv: int) -> dict:
    """The clients that hold connections, all at once, while probing the pages; the figures."""
    stop = threading.Event()
    results: dict = {"healthz": [], "publications": [], "cv": Counter(), "slow_closed": 0}
    lock = threading.Lock()
    idle_sockets = [socket.create_connection(("127.0.0.1", port)) for _ in range(idle)]
    workers = [
        *(threading.Thread(target=slow_client, args=(port, stop, results, lock))
          for _ in range(slow)),
        *(threading.Thread(target=cv_client, args=(port, f"{cv_path}?v={number}", results, lock))
          for number in range(cv)),
    ]  # fmt: skip
    # The probes from a process of their own, as a load balancer's are: in this one they would
    # wait for the interpreter lock behind the clients' 70 threads, and count that wait.
    prober = subprocess.Popen(
        [sys.executable, __file__, "--probe", str(port), str(seconds)],
        cwd=ROOT, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        for worker in workers:
            worker.start()
        time.sleep(seconds)
        stop.set()
        output = prober.communicate(timeout=PROBE_TIMEOUT + 10)[0]
        if prober.returncode != 0:
            raise RuntimeError(f"The probing process exited with {prober.returncode}.")
        results.update(json.loads(output))
    finally:
        stop.set()
        if prober.poll() is None:
            prober.kill()
            prober.wait()
        for worker in workers:
            if worker.ident is not None:  # started
                worker.join(timeout=CV_TIMEOUT + 10)
        for connection in idle_sockets:
            connection.close()
    return results


def probe_for(port: int, seconds: float) -> None:
    """The probing process (`--probe PORT SECONDS`): `/healthz` every 0.25 s and
    `/publications/` every 0.5 s for `seconds`; their times printed as JSON."""
    stop = threading.Event()
    timings: dict[str, list] = {"healthz": [], "publications": [], "sent": []}
    began = time.perf_counter()
    probes = [
        threading.Thread(
            target=probe,
            args=(port, "/healthz", 0.25, stop, timings["healthz"]),
            kwargs={"sent": (began, timings["sent"])},
        ),
        threading.Thread(
            target=probe,
            args=(port, "/publications/", 0.5, stop, timings["publications"]),
            kwargs={"sent": (began, timings["sent"])},
        ),
    ]
    for thread in probes:
        thread.start()
    time.sleep(seconds)
    stop.set()
    for thread in probes:
        thread.join()
    print(json.dumps(timings))


def probe(
    port: int,
    path: str,
    every: float,
    stop: threading.Event,
    timings: list,
    *,
    sent: tuple[float, list],
) -> None:
    """A GET on a new connection every `every` seconds: its time in ms, or None when it failed
    or was not 200 within PROBE_TIMEOUT; noted in `sent` too, with when it was sent (seconds
    since `sent`'s start, the probing process's first probe, a moment after the attack's idle
    sockets opened): [path, seconds, ms or None]."""
    began, noted = sent
    while not stop.is_set():
        started = time.perf_counter()
        status = get(port, path, PROBE_TIMEOUT)[0]
        elapsed = (time.perf_counter() - started) * 1000
        timings.append(elapsed if status == 200 else None)
        noted.append([path, round(started - began, 2), round(elapsed) if status == 200 else None])
        stop.wait(max(0.0, every - elapsed / 1000))


def slow_client(port: int, stop: threading.Event, results: dict, lock: threading.Lock) -> None:
    """A request whose headers never end: a line every 2 s until the run ends or the server
    closes the connection."""
    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port)) as client:
        client.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        number = 0
        while not stop.wait(2):
            try:
                client.sendall(f"X-Slow-{number}: still typing\r\n".encode())
            except OSError:
                with lock:
                    results["slow_closed"] += 1
                return
            number += 1


def cv_client(port: int, path: str, results: dict, lock: threading.Lock) -> None:
    """One cache-busting CV request, its redirect followed as a browser does; asked to retry
    (503 with Retry-After), it asks once more after that wait, as a polite client would."""
    status, location = get(port, path, CV_TIMEOUT)
    if status in (301, 302) and location:
        path = location
        status, location = get(port, path, CV_TIMEOUT)
    if status == 503 and location.isdigit():
        time.sleep(min(int(location), 30))
        status, _ = get(port, path, CV_TIMEOUT)
        status = f"{status} on retry"
    with lock:
        results["cv"][status] += 1


def get(port: int, path: str, timeout: float) -> tuple[int | str, str]:
    """The status and the Location header, or Retry-After for a 503; or what failed."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", path, headers={"Connection": "close"})
        response = connection.getresponse()
        response.read()
        header = "Retry-After" if response.status == 503 else "Location"
        return response.status, response.getheader(header) or ""
    except TimeoutError:
        return "time-out", ""
    except OSError as error:
        return type(error).__name__, ""
    finally:
        connection.close()


def summary(timings: list, bound_ms: float) -> list[str]:
    answered = [timing for timing in timings if timing is not None]
    return [
        str(len(timings)),
        str(len(timings) - len(answered)),
        f"{sum(timing <= bound_ms for timing in answered)}/{len(timings)}",
        f"{p95(answered):,.0f}" if answered else "-",
        f"{max(answered):,.0f}" if answered else "-",
    ]


def errors(row: dict) -> int:
    """Probes that failed, and CV requests answered neither with the PDF nor with a 503 that
    says when to come back (time-outs, refused connections, 500s)."""
    failed_probes = sum(timing is None for timing in row["healthz"] + row["publications"])
    answered = {200, 503, "200 on retry", "503 on retry"}
    return failed_probes + sum(
        count for status, count in row["cv"].items() if status not in answered
    )


def report(rows: list[dict]) -> str:
    """The table, then each path's three slowest probes (a failed one first) with when they
    were sent: where in the attack the time went."""
    slowest = [
        f"\nSlowest {path} probes ({row['server']}): "
        + ", ".join(
            f"{'failed' if ms is None else f'{ms} ms'} at {seconds} s"
            for _, seconds, ms in sorted(
                (probe for probe in row.get("sent", []) if probe[0] == path),
                key=lambda probe: (0, 0) if probe[2] is None else (1, -probe[2]),
            )[:3]
        )
        for row in rows
        for path in ["/healthz", "/publications/"]
    ]
    return table(
        ["server", "healthz probes", "failed", "≤ 200 ms", "p95 ms", "max ms",
         "/publications/ probes", "failed", "≤ 1 s", "p95 ms", "max ms",
         "CV answers", "slow clients cut off", "errors"],
        [
            [row["server"], *summary(row["healthz"], 200), *summary(row["publications"], 1000),
             ", ".join(f"{status}: {count}" for status, count in sorted(row["cv"].items(), key=str)),
             str(row["slow_closed"]), str(errors(row))]
            for row in rows
        ],
    ) + "".join(slowest)  # fmt: skip


if __name__ == "__main__":
    main()
