"""Asking the services, politely and within bounds; or not at all.

A `Fetch` maps an address to the bytes answered, raising FetchFailed with a sentence for staff.
The site's fetch is `default_fetch()`: the network only when the operator has turned
IDENTIFIER_FETCHING on, otherwise a fetch that refuses, so no test and no fresh install ever
reaches out. Each request sends a User-Agent naming the site and its contact address (Crossref
and OpenAlex ask for one, and answer such clients first), waits at most
IDENTIFIER_FETCH_TIMEOUT_SECONDS in all (not per read: a server trickling bytes cannot hold the
request longer), and reads at most MAX_DOCUMENT_BYTES.
"""

import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from http.client import HTTPException

from django.conf import settings

from publications.identifiers.documents import MAX_DOCUMENT_BYTES, too_large

Fetch = Callable[[str], bytes]

# Never longer, whatever the setting says: the admin waits for it within a web request.
MAX_TIMEOUT_SECONDS = 10
# How long one paste of identifiers (papers) or DOIs (datasets and software) may spend asking
# the services, in all: past it nothing more is asked, so the editor waits at most this and one
# request's time-out (30 s), not a time-out for each of 50 lines or 50 pages of one author.
PASTE_SECONDS = 20
CHUNK_BYTES = 64 * 1024
ACCEPT = "application/json, application/atom+xml;q=0.9, application/xml;q=0.9, */*;q=0.1"


class FetchFailed(Exception):
    """The service did not give the document; the message says so in a sentence."""

    def __init__(
        self, message: str, *, not_found: bool = False, late: bool = False, timed_out: bool = False
    ) -> None:
        super().__init__(message)
        self.not_found = not_found
        # Not asked: the time for the whole paste or check was up (within()).
        self.late = late
        # Asked, but the service did not answer within the request's time-out.
        self.timed_out = timed_out


def service_url(service: str) -> str:
    """Where a service answers (settings.IDENTIFIER_SERVICE_URLS), without a trailing slash."""
    base: str = settings.IDENTIFIER_SERVICE_URLS[service]
    return base.rstrip("/")


def user_agent() -> str:
    contact = settings.IDENTIFIER_CONTACT_EMAIL
    return "lab-directory/1.0 (research lab portal" + (f"; mailto:{contact})" if contact else ")")


def default_fetch() -> Fetch:
    return fetch_live if settings.IDENTIFIER_FETCHING else fetching_off


def fetching_off(url: str) -> bytes:
    raise FetchFailed(
        "This site does not ask Crossref, arXiv, ORCID, dblp, OpenAlex or DataCite over the "
        "network (the setting IDENTIFIER_FETCHING is off). Upload the file the service exports "
        "instead."
    )


def within(fetch: Fetch, *, seconds: float, message: str) -> Fetch:
    """`fetch`, refusing with `message` once `seconds` have gone by since this was called: a
    record read in many requests (ORCID's works a hundred at a time, OpenAlex's pages of an
    author) cannot hold the request, or the worker, longer."""
    deadline = time.monotonic() + seconds

    def bounded(url: str) -> bytes:
        if time.monotonic() > deadline:
            raise FetchFailed(message, late=True)
        return fetch(url)

    return bounded


def fetch_live(url: str) -> bytes:
    timeout = min(settings.IDENTIFIER_FETCH_TIMEOUT_SECONDS, MAX_TIMEOUT_SECONDS)
    request = urllib.request.Request(url, headers={"User-Agent": user_agent(), "Accept": ACCEPT})
    started = time.monotonic()
    host = urllib.parse.urlsplit(url).hostname or url
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            chunks: list[bytes] = []
            size = 0
            # read1: what has arrived, at most CHUNK_BYTES; read(n) would wait for all n.
            while chunk := response.read1(CHUNK_BYTES):
                size += len(chunk)
                if size > MAX_DOCUMENT_BYTES:
                    raise FetchFailed(too_large(size, what=f"The answer from {host}") + " Stopped.")
                if time.monotonic() - started > timeout:
                    raise FetchFailed(
                        f"{host} took longer than {timeout} seconds to answer. Try again later.",
                        timed_out=True,
                    )
                chunks.append(chunk)
            return b"".join(chunks)
    except urllib.error.HTTPError as error:
        if error.code in (404, 410):
            raise FetchFailed(f"{host} knows no such record.", not_found=True) from None
        raise FetchFailed(
            f"{host} answered with an error (HTTP {error.code}). Try again later."
        ) from None
    except (urllib.error.URLError, TimeoutError, HTTPException, OSError) as error:
        reason = getattr(error, "reason", error)
        raise FetchFailed(
            f"{host} could not be reached ({reason}). Try again later.",
            timed_out=isinstance(reason, TimeoutError),
        ) from None
