"""The services papers are added from (Crossref, arXiv, ORCID, dblp, OpenAlex), and datasets and
software (DataCite), played by a
real HTTP server on 127.0.0.1 answering with the recorded responses in tests/data/identifiers:
the site's own fetching code (urllib, time-outs, size bound, User-Agent) runs as it would
against the real services, and no test reaches the network."""

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TypeVar
from urllib.parse import parse_qs, urlsplit

DATA = Path(__file__).resolve().parent / "data" / "identifiers"
ORCID = "0000-0002-1825-0097"

# Each address the site asks for, as (path, the query's values), and the file that answers it.
ROUTES: dict[tuple[str, frozenset[tuple[str, str]]], str] = {
    ("/crossref/works/10.1145/3603269.3604826", frozenset()): "crossref-work.json",
    (
        "/arxiv/query",
        frozenset({("id_list", "1412.6980,2101.00001"), ("max_results", "2")}),
    ): "arxiv-query.xml",
    (
        "/arxiv/query",
        frozenset({("id_list", "1234.12345"), ("max_results", "1")}),
    ): "arxiv-error.xml",
    (f"/orcid/{ORCID}/works", frozenset()): "orcid-works-summary.json",
    (f"/orcid/{ORCID}/works/112233,445566", frozenset()): "orcid-works-bulk.json",
    ("/dblp/pid/z/HangZhu.xml", frozenset()): "dblp-person.xml",
    ("/openalex/works/W4386710001", frozenset()): "openalex-work.json",
    (
        "/openalex/works",
        frozenset({("filter", "author.id:A5023888391"), ("per-page", "200"), ("cursor", "*")}),
    ): "openalex-author-works.json",
    # Citation counts (publications/suggestions/citations.py): OpenAlex by DOI, Crossref's work.
    (
        "/openalex/works",
        frozenset(
            {
                ("filter", "doi:10.1145/3603269.3604826|10.1145/3611111"),
                ("per-page", "50"),
                ("select", "id,doi,cited_by_count"),
            }
        ),
    ): "openalex-cited-by.json",
    ("/crossref/works/10.1145/3611111", frozenset()): "crossref-work-cited.json",
    # Datasets and software by DOI (outputs/fetching.py): DataCite's REST API, Zenodo's DOIs too.
    ("/datacite/dois/10.5281/zenodo.1234567", frozenset()): "datacite-zenodo-software.json",
    ("/datacite/dois/10.5281/zenodo.7654321", frozenset()): "../outputs/datacite-dataset.json",
}
ServerType = TypeVar("ServerType", bound=ThreadingHTTPServer)
SERVICES = ("crossref", "arxiv", "orcid", "dblp", "openalex", "datacite")


class Handler(BaseHTTPRequestHandler):
    server: "Service"

    def do_GET(self) -> None:
        address = urlsplit(self.path)
        path = address.path.replace("%2F", "/").replace("%2f", "/")
        query = frozenset(
            (name, value) for name, values in parse_qs(address.query).items() for value in values
        )
        self.server.requests.append((self.path, dict(self.headers)))
        if path.startswith("/slow/"):  # headers at once, then a byte a second: never finishing
            self._start(200, "application/json")
            for _ in range(30):
                self.wfile.write(b" ")
                self.wfile.flush()
                time.sleep(1)
            return
        if path == "/huge/":
            self._start(200, "application/json")
            self.wfile.write(b"[" + b"0," * (5 * 1024 * 1024) + b"0]")
            return
        if (answer := self.server.answers.get(path)) is not None:
            self._start(200, "application/octet-stream")
            self.wfile.write(answer)
            return
        name = ROUTES.get((path, query))
        if name is None:
            self._start(404, "text/plain")
            self.wfile.write(b"Resource not found.")
            return
        self._start(200, "application/xml" if name.endswith(".xml") else "application/json")
        self.wfile.write((DATA / name).read_bytes())

    def _start(self, status: int, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass


class Service(ThreadingHTTPServer):
    daemon_threads = True
    requests: list[tuple[str, dict[str, str]]]
    # Answers a test sets by path, whatever the query: garbage, or a record made on the spot.
    answers: dict[str, bytes]

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host!s}:{port}"

    def handle_error(self, request: object, client_address: object) -> None:
        """The site hanging up on /slow/ or /huge/ is what those tests expect."""

    def urls(self) -> dict[str, str]:
        return {name: f"{self.url}/{name}" for name in SERVICES}


@contextmanager
def serving(server: ServerType) -> Iterator[ServerType]:
    """`server` answering from a thread of its own until the block ends."""
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


@contextmanager
def recorded_services() -> Iterator[Service]:
    server = Service(("127.0.0.1", 0), Handler)
    server.requests = []
    server.answers = {}
    with serving(server):
        yield server


class SlowHandler(Handler):
    """The services on a slow day: each answer comes after `server.delay` seconds."""

    server: "SlowService"

    def do_GET(self) -> None:
        time.sleep(self.server.delay)
        super().do_GET()


class SlowService(Service):
    delay: float


@contextmanager
def slow_services(delay: float) -> Iterator[SlowService]:
    """The recorded services, each answer `delay` seconds late: for a paste's deadline."""
    server = SlowService(("127.0.0.1", 0), SlowHandler)
    server.requests = []
    server.answers = {}
    server.delay = delay
    with serving(server):
        yield server
