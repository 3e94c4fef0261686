"""Every answer under /api/ is JSON, errors included.

ninja answers its own errors in JSON (config/api.py). What Django answers before or around it
(an unknown path's 404, a POST refused by the CSRF check or with a 405, a server error) would
be an HTML page, which a client reading JSON cannot parse: this turns each into
{"detail": ..., "errors": []} with the same status, headers (but those of the page's body) and
cookies.
"""

from http import HTTPStatus

from django.http import HttpRequest, HttpResponseBase, JsonResponse
from django.middleware.locale import LocaleMiddleware
from django.utils import translation

API_PREFIX = "/api/"


class ApiJsonErrorsMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if (
            request.path.startswith(API_PREFIX)
            and response.status_code >= 400
            and not response.get("Content-Type", "").startswith("application/json")
        ):
            return as_json(response)
        return response


# The headers that describe the error page's own body, which the JSON replaces with its own.
# Every other header is kept: it tells the client something about the answer (Retry-After of
# the 503 "busy" or of a 429, Allow, Vary, Cache-Control, Content-Language, CORS).
BODY_HEADERS = frozenset(
    [
        "content-type",
        "content-length",
        "content-encoding",
        "content-disposition",
        "content-range",
        "etag",
        "last-modified",
    ]
)


def as_json(response):
    try:
        detail = HTTPStatus(response.status_code).phrase
    except ValueError:
        detail = "Error"
    replacement = JsonResponse({"detail": detail, "errors": []}, status=response.status_code)
    for header, value in response.items():
        if header.lower() not in BODY_HEADERS:
            replacement[header] = value
    replacement.cookies = response.cookies
    return replacement


class LanguageFromAddressMiddleware(LocaleMiddleware):
    """Django's LocaleMiddleware, where the address alone says the language.

    With `i18n_patterns(prefix_default_language=False)` an address without a language prefix is
    always English, whatever the browser's Accept-Language; Django still adds "Vary:
    Accept-Language" to those answers, which would tell every proxy (and the site's page
    cache, which keeps only answers that vary by Cookie at most) that they differ by a header
    they do not read. The answer names its language in Content-Language instead."""

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        response.headers.setdefault("Content-Language", translation.get_language())
        return response
