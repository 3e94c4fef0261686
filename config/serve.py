"""The production server: granian serving config.wsgi, with every limit that keeps slow or idle
clients from holding it set here on purpose (docs/decisions/production-server.md).

    .venv/bin/python -m config.serve                 (`make serve`; the README's production command)

HOST and PORT say where it listens (127.0.0.1:8000, behind the TLS proxy), WEB_CONCURRENCY how
many processes (2), WEB_THREADS how many requests each runs in Django at once (8).

Why granian (measured in docs/decisions/production-server.md): it reads requests in Rust, off
the Python threads, so a connection that sends nothing, or headers a line at a time, holds no
thread that Django needs; a thread gets a request only once it has fully arrived, and a client
that starts its headers must finish them within 5 s. gunicorn's sync workers were each held by
one such connection until their 30 s time-out, its threaded workers hand a connection to a
thread as soon as a byte arrives; uvicorn kept answering too but never cut a slow-header client
off.
"""

import gc
import logging
import os
import sys
from pathlib import Path
from typing import Any

logger = logging.getLogger(__name__)

# Containers allocated between two collections of the youngest generation, in each serving
# process (prepare_process).
GC_YOUNG_THRESHOLD = 50_000


def server_command(*, host: str, port: int) -> list[str]:
    """The command line, for `main` and for benchmarks/slow_clients.py and load.py."""
    workers = os.environ.get("WEB_CONCURRENCY", "2")
    threads = os.environ.get("WEB_THREADS", "8")
    return [
        *(sys.executable, "-m", "granian", "--interface", "wsgi"),
        *("--host", host, "--port", str(port)),
        # Processes: one per core. Each holds its own copy of the rendered entries and pages
        # (base/site_cache.py), so more processes cost memory and cache hits.
        *("--workers", workers),
        # Requests each process runs in Django at once: a cold page or an editor's CV preview
        # takes one, while the others keep answering. Visitors' CV PDFs are printed by the task
        # worker, editors' previews one at a time (CV_PDF_MAX_CONCURRENT_RENDERS, 1).
        *("--blocking-threads", threads),
        # A client has 5 s from the first byte of a request to the end of its headers
        # (granian's default is 30 s): a slow-header client is cut off then, and holds nothing
        # but a few KB meanwhile. A connection that sends nothing at all stays open (the timer
        # starts at the first byte) but holds no thread either; the TLS proxy in front closes
        # those (nginx's client_header_timeout).
        *("--http1-header-read-timeout", "5000"),
        # Keep-alive stays on: an idle kept-alive connection holds no thread, only a socket.
        "--http1-keep-alive",
        # The request line and headers must fit in 16 KB (granian's minimum is 8 KB): Django's
        # own limit per header is far above what a browser sends, session and CSRF cookies take
        # under 1 KB. A larger head is refused before Django sees it.
        *("--http1-buffer-size", str(16 * 1024)),
        # On a restart (deploy), requests under way get 30 s to finish, then their process is
        # killed: no page takes near that, a CV PDF takes a few seconds.
        *("--workers-kill-timeout", "30"),
        # A process that dies (out of memory in a huge export) is started again.
        "--respawn-failed-workers",
        *("--log-level", os.environ.get("LOG_LEVEL", "warning").lower()),
        "--no-ws",
        "config.wsgi:application",
    ]


def prepare_process() -> None:
    """Once a serving process has loaded the site, before its first request (config/wsgi.py):
    what keeps a short request short beside long ones in the same process. Measured under
    `make load` (benchmarks/README.md, "/healthz under the attack"): on SQLite a /healthz probe
    took up to 450 ms without these, at most 175 ms with them."""
    # Every view module now, as the first request would load them (the URLconf imports them),
    # and the site's templates, compiled as their first page would compile them (the cached
    # loader keeps them for the process's life): the freeze below then covers them too.
    from django.conf import settings
    from django.db import connections
    from django.template.loader import get_template
    from django.urls import reverse
    from django.utils import translation

    from base import site_cache

    # The URL names too, in each language (the first reverse() walks the URLconf: 140 ms, the
    # admin's 50 more), and the code's release that every page's ETag and cache key carry (a
    # digest of the project's files, 0.5-0.9 s): the first requests of each process made them,
    # holding the interpreter lock while the process's other threads waited.
    for language, _ in settings.LANGUAGES:
        with translation.override(language):
            reverse("healthz")
            reverse("admin:index")
    site_cache.release()
    folders: Any = settings.TEMPLATES[0]["DIRS"]
    for folder in map(Path, folders):
        for path in sorted(folder.rglob("*.html")):
            name = str(path.relative_to(folder))
            try:
                get_template(name)
            except Exception as error:  # noqa: BLE001
                # One template that does not compile (or read) fails its own pages, as it
                # would without this, not every process of the site; said in the log.
                logger.warning("The template %s did not compile: %r", name, error)
    # The libraries of the shared cache's client and of the database's driver, which Django
    # imports on their first use: the redis package alone is about 3,000 functions that the
    # collector would walk each time otherwise. Imported only (each request thread makes its
    # own client and connection): nothing is opened here.
    if any("redis" in cache["BACKEND"] for cache in settings.CACHES.values()):
        import redis  # noqa: F401
    for alias in connections:
        connections[alias]  # noqa: B018
    # What is loaded by now (Django, the apps, the views, the templates, the cache's and the
    # database's clients: about 180,000 objects) lives as long as the process. Frozen, it is
    # no longer walked by Python's collection of reference cycles, which held the interpreter
    # lock for 120-310 ms every 5-10 s in each process under load, while every request of
    # that process waited.
    gc.collect()
    gc.freeze()
    # And a collection of the youngest objects after every GC_YOUNG_THRESHOLD containers
    # allocated (Python's default: 700). Every few milliseconds otherwise, each one finds the
    # requests in flight in the process's other threads and moves their objects on to an
    # older generation; those are garbage a moment later, cycles that the older generations'
    # collections free, the oldest only a full one. Under `make load` on PostgreSQL each full
    # collection then walked 25,000-60,000 such dead objects, for 20-785 ms. The count is of
    # containers allocated less those freed, so memory stays bounded.
    gc.set_threshold(GC_YOUNG_THRESHOLD, *gc.get_threshold()[1:])
    # A thread that waited for the database or a socket gets the interpreter lock back within
    # 1 ms instead of Python's 5: a short request beside a render in another thread of the
    # process asks for it again after each of its waits.
    sys.setswitchinterval(0.001)


def main() -> None:
    host = os.environ.get("HOST", "127.0.0.1")
    port = int(os.environ.get("PORT", "8000"))
    command = server_command(host=host, port=port)
    os.execv(command[0], command)


if __name__ == "__main__":
    main()
