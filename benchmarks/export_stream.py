"""Times the whole BibTeX export, streamed, and the server's memory while it streams (issue 24).

    make bench-export                                       (SQLite, 200,000 papers)
    .venv/bin/python benchmarks/export_stream.py --sizes 20000
    DATABASE_URL=postgres://postgres@127.0.0.1:5440/postgres make bench-export

The data sets are http.py's (benchmarks/dataset.py, seeded, kept between runs; the same options).
For each size it serves them with http.py's gunicorn (2 sync workers, DEBUG off, the page cache
on) and, over fresh connections, one request at a time: a year's export first, three times, so
that both workers have loaded everything a request loads; then every paper's BibTeX, twice, and
another year's.
While each streams, the workers' resident memory (VmRSS) is read every 10 ms; the growth is
the peak over the worker's resident memory before the request. Time to the first byte and to
the last are printed beside the bytes and entries received.

Prints figures only: nothing here asserts a time.
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if __name__ == "__main__":
    # As in http.py: this file's folder would otherwise hide the standard library's `http`.
    sys.path[0] = str(ROOT)

import http.client  # noqa: E402
import shutil  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402

from benchmarks import http as bench  # noqa: E402

# The warm-up three times: whichever worker takes a fresh connection has loaded everything.
EXPORTS = [
    *[("warm-up: the year 2026", "/publications/export.bib?year_min=2026&year_max=2026")] * 3,
    ("every paper", "/publications/export.bib"),
    ("every paper, again", "/publications/export.bib"),
    ("one year (2020)", "/publications/export.bib?year=2020"),
]


def main() -> None:
    arguments = bench.parse_arguments()
    workspace = Path(tempfile.mkdtemp(prefix="lab-bench-export-"))
    try:
        environment = bench.base_environment(workspace)
        key = bench.run_internal(["key"], environment, workspace)["key"]
        for size in arguments.sizes if arguments.sizes != bench.DEFAULT_SIZES else [200_000]:
            url = bench.data_set(size, key, arguments, environment, workspace)
            measure(size, {**environment, "DATABASE_URL": url}, workspace)
    finally:
        shutil.rmtree(workspace, ignore_errors=True)


def measure(size: int, environment: dict[str, str], workspace: Path) -> None:
    copies = workspace / "copies"
    copies.mkdir(exist_ok=True)
    (workspace / "cache").mkdir(exist_ok=True)
    server = bench.Server(environment, copies)
    try:
        print(f"\n{size:,} papers ({environment['DATABASE_URL'].split(':')[0]})", flush=True)
        print(
            "| export | status | streamed | first byte | whole | MB sent | entries | RSS growth |"
        )
        print("|---|---|---|---|---|---|---|---|")
        for label, url in EXPORTS:
            row = stream(server, url)
            print(
                f"| {label} | {row['status']} | {row['streamed']} | {row['first']:,.0f} ms "
                f"| {row['whole']:,.0f} ms | {row['bytes'] / 1e6:.1f} | {row['entries']:,} "
                f"| {row['growth'] / 1024:.1f} MB |",
                flush=True,
            )
    finally:
        server.stop()


def workers(master: int) -> list[int]:
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    return [int(pid) for pid in children]


def resident_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def stream(server: "bench.Server", url: str) -> dict:
    """One export over a fresh connection, read 64 KB at a time, with every worker's resident
    memory sampled meanwhile: the growth is that of the worker that grew most."""
    pids = workers(server.process.pid)
    before = {pid: resident_kb(pid) for pid in pids}
    peak = dict(before)
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            for pid in pids:
                peak[pid] = max(peak[pid], resident_kb(pid))
            time.sleep(0.01)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    started = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=1200)
    received, entries, first, last = 0, 0, None, b"\n"
    try:
        connection.request("GET", url, headers={"Connection": "close"})
        response = connection.getresponse()
        while data := response.read(65536):
            first = first or time.perf_counter()
            received += len(data)
            # Entries begin with "@" at the start of a line, the first at the start of the file.
            entries += data.count(b"\n@") + (last == b"\n" and data[:1] == b"@")
            last = data[-1:]
    finally:
        connection.close()
        done.set()
        sampler.join()
    ended = time.perf_counter()
    return {
        "status": response.status,
        # Sent whole, a response has its length; streamed, it has none.
        "streamed": "no" if response.getheader("Content-Length") else "yes",
        "first": ((first or ended) - started) * 1000,
        "whole": (ended - started) * 1000,
        "bytes": received,
        "entries": entries,
        "growth": max(peak[pid] - before[pid] for pid in pids),
    }


if __name__ == "__main__":
    main()
