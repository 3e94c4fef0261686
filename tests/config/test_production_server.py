"""The production server (config/serve.py) keeps answering while clients hold connections
without finishing a request: connections that send nothing, and clients that send headers a
line at a time and never end them. gunicorn's sync workers, which it replaced, stopped
answering with two such connections held (docs/decisions/production-server.md).

The server runs as `make serve` runs it, on a free port of 127.0.0.1, with one process of two
threads: fewer threads than the connections held, so a server that gave each connection a
thread would not answer.
"""

import contextlib
import http.client
import os
import socket
import subprocess
import sys
import time

import pytest

from benchmarks.http import free_port
from config.serve import GC_YOUNG_THRESHOLD
from tests.live_site import PROJECT, site_environment

HELD = 6


@pytest.fixture
def server(tmp_path):
    port = free_port()
    environment = site_environment(
        tmp_path, HOST="127.0.0.1", PORT=str(port), WEB_CONCURRENCY="1", WEB_THREADS="2"
    )
    log = open(tmp_path / "server.log", "wb")  # noqa: SIM115 (closed below)
    process = subprocess.Popen(
        [sys.executable, "-m", "config.serve"],
        cwd=PROJECT, env=environment, stdout=log, stderr=subprocess.STDOUT, process_group=0,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while get(port, "/healthz", timeout=2) != 200:
            assert process.poll() is None, (tmp_path / "server.log").read_text()[-3000:]
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.2)
        yield port
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, 15)
        try:
            # A graceful stop waits up to 30 s for the connections the test left open.
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, 9)
            process.wait(timeout=30)
        log.close()


def get(port: int, path: str, *, timeout: float) -> int | None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", path)
        return connection.getresponse().status
    except OSError:
        return None
    finally:
        connection.close()


def test_the_site_answers_while_idle_and_slow_header_clients_hold_connections(server):
    idle = [socket.create_connection(("127.0.0.1", server)) for _ in range(HELD)]
    slow = [socket.create_connection(("127.0.0.1", server)) for _ in range(HELD)]
    try:
        for client in slow:
            client.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1")
        time.sleep(0.5)  # every connection has reached the server
        for _ in range(3):
            assert get(server, "/healthz", timeout=10) == 200
    finally:
        for client in idle + slow:
            client.close()


def test_a_client_that_never_finishes_its_headers_is_cut_off(server):
    """Within the server's header time-out (5 s), not left to hold a connection for good: a
    generous bound, under granian's own default of 30 s."""
    with socket.create_connection(("127.0.0.1", server), timeout=25) as client:
        client.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        started = time.monotonic()
        with contextlib.suppress(ConnectionResetError):
            while client.recv(1024):  # a 408 answer, or none, then the end of the connection
                pass
        assert time.monotonic() - started < 20


def test_each_serving_process_loads_its_views_freezes_them_and_switches_threads_often(tmp_path):
    """config/wsgi.py prepares each process before its first request (config/serve.py's
    prepare_process): the views loaded, the templates compiled and the cache client's library
    imported, what is loaded kept out of the cycle collector's walks, the youngest objects
    collected less often, the interpreter lock passed on within 1 ms. Without it a /healthz
    probe waited up to 450 ms beside the editor's saves under `make load`. Nothing is opened:
    no Redis listens on port 9 here."""
    script = (
        "import gc, sys; import config.wsgi; from django.template import engines; "
        "cached = engines['django'].engine.template_loaders[0].get_template_cache; "
        "print(gc.get_freeze_count(), sys.getswitchinterval(), 'pages.views.home' in sys.modules,"
        " 'people/person_detail.html' in cached, gc.get_threshold()[0], 'redis' in sys.modules)"
    )
    environment = site_environment(tmp_path, CACHE_URL="redis://127.0.0.1:9/0")
    answer = subprocess.run(
        [sys.executable, "-c", script], cwd=PROJECT, env=environment,
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    frozen, interval, views_loaded, template_compiled, young, redis = answer.stdout.split()
    assert int(frozen) > 100_000
    assert float(interval) == 0.001
    assert views_loaded == "True"
    assert template_compiled == "True"
    assert int(young) == GC_YOUNG_THRESHOLD > 700
    assert redis == "True"
