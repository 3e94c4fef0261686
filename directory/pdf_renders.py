"""PDFs that take seconds to render (a CV of 200 papers: about 6 s), answered so that a flood
of requests cannot take the site down.

- One address per document: a request with a query string is sent (301) to the bare address,
  so `cv.pdf?v=1`, `?v=2`, ... are one page for the page cache and one entry here.
- Rendered at most once per change of the site, and one render of a document at a time: the
  PDF is kept in the shared cache under the change stamp (`site_cache.value_key`), and while
  one process renders a document, a request for the same one on any app server sharing the
  cache gets the PDF as it was before the latest change, if it was rendered at most
  `settings.CV_PDF_PREVIOUS_SECONDS` ago, else 503 with Retry-After; it never renders it too.
  (An editor saving all day moves the site's stamp every few seconds; the previous PDF keeps
  the CV served meanwhile.)
- At most `settings.CV_PDF_MAX_CONCURRENT_RENDERS` renders at once in each process (the CV is
  the site's only PDF); a request beyond them gets the previous PDF or 503 with Retry-After at
  once, so the server's other threads keep serving pages.

Only visitors' PDFs are kept: a signed-in member or editor may see rows visitors do not, and
gets a fresh render (still within the cap). With DEBUG on nothing is kept, so an edited
template shows at once.
"""

import threading
from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.utils.cache import patch_cache_control
from django.utils.http import content_disposition_header

from directory import site_cache

# Seconds a client is asked to wait before asking again for a PDF being rendered.
RETRY_AFTER_SECONDS = 10
# A render's claim on its document expires after this, should its process die while rendering.
RENDER_CLAIM_SECONDS = 120
BEING_RENDERED = "This PDF is being prepared for another visitor right now."
CAP_REACHED = "The site is preparing as many PDFs as it can at once right now."

_slots_lock = threading.Lock()
_slots: dict[int, threading.BoundedSemaphore] = {}


def render_slots() -> threading.BoundedSemaphore:
    """This process's render slots, as many as the setting says (read on each request, so a
    test may change it)."""
    size = settings.CV_PDF_MAX_CONCURRENT_RENDERS
    with _slots_lock:
        return _slots.setdefault(size, threading.BoundedSemaphore(size))


def pdf_response(
    request: HttpRequest,
    *,
    name: str,
    parts: object,
    filename: str,
    render: Callable[[], bytes],
) -> HttpResponse:
    """`render()`'s PDF, shown in the browser and saved as `filename`; for visitors kept until
    the next change under `name` and `parts` (what it depends on besides the site's rows).
    `render` may raise Http404."""
    if request.META.get("QUERY_STRING"):
        return HttpResponsePermanentRedirect(request.path)
    parts = (parts, request.build_absolute_uri("/"))  # its links are absolute
    key = site_cache.value_key(name, parts)
    if key is None or settings.DEBUG or request.user.is_authenticated:
        pdf = render_within_cap(render)
        return busy(CAP_REACHED) if pdf is None else pdf_answer(pdf, filename)
    if (pdf := cache.get(key)) is not None:
        return pdf_answer(pdf, filename)
    latest = site_cache.lasting_key(f"{name}-latest", parts)
    claim = site_cache.lasting_key(f"{name}-rendering", parts)
    if not cache.add(claim, True, RENDER_CLAIM_SECONDS):
        return previous(latest, filename) or busy(BEING_RENDERED)
    try:
        if (pdf := render_within_cap(render)) is None:
            return previous(latest, filename) or busy(CAP_REACHED)
        cache.set(key, pdf, settings.SITE_CACHE_TIMEOUT)
        cache.set(latest, pdf, settings.CV_PDF_PREVIOUS_SECONDS)
    finally:
        cache.delete(claim)
    return pdf_answer(pdf, filename)


def render_within_cap(render: Callable[[], bytes]) -> bytes | None:
    """`render()` in one of this process's render slots; None when they are all taken."""
    slots = render_slots()
    if not slots.acquire(blocking=False):
        return None
    try:
        return render()
    finally:
        slots.release()


def previous(latest: str, filename: str) -> HttpResponse | None:
    """The PDF as last rendered, before the latest change, if that was at most
    CV_PDF_PREVIOUS_SECONDS ago: kept by no cache, since the next request may have the new one."""
    pdf = cache.get(latest)
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
    response = HttpResponse(
        f"{reason} Please try again in {RETRY_AFTER_SECONDS} seconds.\n",
        status=503,
        content_type="text/plain; charset=utf-8",
    )
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    patch_cache_control(response, no_store=True)
    return response
