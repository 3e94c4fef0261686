"""PDFs that take seconds to print (a CV of 200 papers: about 6 s), printed by the task worker
for visitors, so that a flood of requests cannot take a web process's CPU or threads.

- One address per document: a request with a query string is sent (301) to the bare address,
  so `cv.pdf?v=1`, `?v=2`, ... are one page for the page cache and one entry here.
- A visitor's PDF is kept in the shared cache with the stamp it was printed under, and stays
  good until a change touches what it shows (`scopes`: a CV follows its member's own rows and
  papers and anyone's name, so a save of another member's paper keeps it; base/caches.py).
  When it is not good for the current state, the request queues one print in the task worker
  (`manage.py db_worker`; one queued print per document across every app server sharing the
  cache: a claim, `caches.add`) and is answered at once with the PDF as it was before the
  latest change, if that was printed at most `settings.CV_PDF_PREVIOUS_SECONDS` ago, else 503
  with Retry-After and "The PDF is being prepared". The web process never prints for visitors:
  a print of a long CV slowed every other request of its process (issue 24, `make load`).
- The worker prints each document at most once per change (`print_for_visitors`: a print
  queued twice finds it kept and prints nothing), one task at a time per worker process.

A signed-in member or editor may see rows visitors do not (drafts), so their PDF is printed in
the web process, fresh and kept nowhere, at most `settings.CV_PDF_MAX_CONCURRENT_RENDERS` at a
time per process (503 with Retry-After beyond). With DEBUG on nothing is kept and everything is
printed in the request, so an edited template shows at once.

Nothing is printed in advance after a change: printing each CV a change touched after each
save would keep the worker printing all day for PDFs that are rarely asked for. The worker and the web processes must share the cache (CACHE_URL: the
default file cache on one machine, Redis across machines).
"""

import threading
from collections.abc import Callable, Iterable
from typing import TypedDict
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.utils import translation
from django.utils.cache import patch_cache_control
from django.utils.http import content_disposition_header

from base import caches, site_cache

# Seconds a client is asked to wait before asking again for a PDF being printed.
RETRY_AFTER_SECONDS = 10
# A queued print's claim on its document: no other print of it is queued meanwhile. It expires
# after this, should the worker be stopped or die before printing it.
PRINT_CLAIM_SECONDS = 120
BEING_PREPARED = "The PDF is being prepared; try again in a few seconds."
CAP_REACHED = "The site is preparing as many PDFs as it can at once; try again in a few seconds."

_slots_lock = threading.Lock()
_slots: dict[int, threading.BoundedSemaphore] = {}


def render_slots() -> threading.BoundedSemaphore:
    """This process's print slots, as many as the setting says (read on each request, so a
    test may change it)."""
    size = settings.CV_PDF_MAX_CONCURRENT_RENDERS
    with _slots_lock:
        return _slots.setdefault(size, threading.BoundedSemaphore(size))


class KeptDocument(TypedDict):
    """What names a document among the kept copies and prints it: the same for `pdf_response`
    in the view and `print_for_visitors` in the worker (`**document` into either), so that the
    two never disagree on its keys."""

    name: str
    parts: object
    render: Callable[[], bytes]
    scopes: Iterable[str] | None


def pdf_response(
    request: HttpRequest,
    *,
    name: str,
    parts: object,
    filename: str,
    render: Callable[[], bytes],
    print_later: Callable[[], object],
    scopes: Iterable[str] | None = None,
) -> HttpResponse:
    """The PDF as a response, shown in the browser and saved as `filename`.

    For visitors, the copy kept under `name` and `parts` (what it depends on besides the site's
    rows) for the current state, else `print_later()` is called (it queues a task that calls
    `print_for_visitors` with the same name and parts) once across servers, and the previous
    copy or a 503 answers. The copy stays good until a change of `scopes` (any change when
    None). For signed-in users and with DEBUG, `render()` in this process. `render` may raise
    Http404."""
    if (redirect := to_own_address(request)) is not None:
        return redirect
    if settings.DEBUG or request.user.is_authenticated:
        pdf = render_within_cap(render)
        return busy(CAP_REACHED) if pdf is None else pdf_answer(pdf, filename)
    keys = VisitorKeys(request, name=name, parts=parts, scopes=scopes)
    if (pdf := keys.current()) is not None:
        return pdf_answer(pdf, filename)
    if caches.add(keys.claim, True, PRINT_CLAIM_SECONDS):
        try:
            print_later()
        except BaseException:
            caches.forget(keys.claim)  # queued nothing: the next request tries again
            raise
    return previous(keys.latest, filename) or busy(BEING_PREPARED)


def to_own_address(request: HttpRequest) -> HttpResponse | None:
    """The 301 to the document's bare address for a request with a query string, else None.
    A view calls it before it reads anything: a cache-busting flood (`cv.pdf?v=1`, `?v=2`,
    ...) then costs each request the middleware alone, no query."""
    if request.META.get("QUERY_STRING"):
        return HttpResponsePermanentRedirect(request.path)
    return None


def print_for_visitors(
    request: HttpRequest,
    *,
    name: str,
    parts: object,
    render: Callable[[], bytes],
    scopes: Iterable[str] | None = None,
) -> bool:
    """In the task worker: print the PDF `pdf_response` queued and keep it for visitors, unless
    it is kept already for the current state (the print was queued twice). `request` is a
    visitor's request for the document (`VisitorRequest`). Whether it printed."""
    # The stamp, read before any row.
    keys = VisitorKeys(request, name=name, parts=parts, scopes=scopes)
    try:
        if keys.current() is not None:
            return False
        pdf = render()
        if keys.stamp and not site_cache.bump_pending():
            caches.write(keys.kept, (keys.stamp, pdf), settings.SITE_CACHE_TIMEOUT)
        caches.write(keys.latest, pdf, settings.CV_PDF_PREVIOUS_SECONDS)
        return True
    finally:
        caches.forget(keys.claim)


class VisitorKeys:
    """Where a visitor's PDF is kept with the stamp it was printed under, its latest copy
    whatever the state (served for a bounded time while the next is printed), and the claim on
    printing it."""

    def __init__(
        self,
        request: HttpRequest,
        *,
        name: str,
        parts: object,
        scopes: Iterable[str] | None = None,
    ) -> None:
        # Its links are absolute; its words are in the language of its address (/zh-hans/...).
        parts = (parts, request.build_absolute_uri("/"), translation.get_language())
        self.stamp = site_cache.current_stamp()
        self.scopes = scopes
        self.kept = site_cache.lasting_key(name, parts)
        self.latest = site_cache.lasting_key(f"{name}-latest", parts)
        self.claim = site_cache.lasting_key(f"{name}-printing", parts)

    def current(self) -> bytes | None:
        """The kept PDF, if no change of its scopes was made since it was printed."""
        stored = caches.read(self.kept)
        if stored is None:
            return None
        made, pdf = stored
        return pdf if site_cache.unchanged_since(made, self.scopes) else None


class VisitorRequest(HttpRequest):
    """A visitor's GET of one address, for the task worker, which prints a page no request is
    waiting for: the templates' absolute links (canonical URL, profile link) come out as they
    do in the visitor's own request."""

    def __init__(self, url: str) -> None:
        """`url`: the document's address, as `request.build_absolute_uri()` gave it."""
        super().__init__()
        address = urlsplit(url)
        self.method = "GET"
        self.path = self.path_info = address.path
        self.url_scheme = address.scheme
        self.META["HTTP_HOST"] = address.netloc
        self.user = AnonymousUser()

    def _get_scheme(self) -> str:
        return self.url_scheme

    @property
    def language(self) -> str:
        """The language its address says (/zh-hans/people/... is Chinese), as a visitor's
        request would have it active."""
        return translation.get_language_from_path(self.path_info) or settings.LANGUAGE_CODE


def render_within_cap(render: Callable[[], bytes]) -> bytes | None:
    """`render()` in one of this process's print slots; None when they are all taken."""
    slots = render_slots()
    if not slots.acquire(blocking=False):
        return None
    try:
        return render()
    finally:
        slots.release()


def previous(latest: str, filename: str) -> HttpResponse | None:
    """The PDF as last printed, before the latest change, if that was at most
    CV_PDF_PREVIOUS_SECONDS ago: kept by no cache, since the next request may have the new one."""
    pdf = caches.read(latest)
    if pdf is None:
        return None
    response = pdf_answer(pdf, filename)
    patch_cache_control(response, no_store=True)
    return response


def pdf_answer(pdf: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(pdf, content_type="application/pdf")
    if disposition := content_disposition_header(False, filename):  # None for no filename
        response["Content-Disposition"] = disposition
    return response


def busy(reason: str) -> HttpResponse:
    response = HttpResponse(f"{reason}\n", status=503, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    patch_cache_control(response, no_store=True)
    return response
