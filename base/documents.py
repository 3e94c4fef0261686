"""Pages printed to PDF with WeasyPrint (a CV): the same HTML a browser gets, laid out for paper.

WeasyPrint fetches what a page links to (its stylesheet, a photo). Here it reads those from the
site's own static files and uploads, by path, and fetches nothing else: a URL staff typed into
a profile must never make the server request it, and the tests need no running server.
"""

import mimetypes
from typing import Any
from urllib.parse import unquote, urlsplit

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.files.storage import default_storage
from django.urls import reverse
from PIL import ImageFile
from weasyprint import HTML
from weasyprint.urls import URLFetcher, URLFetcherResponse

from base import identity
from base.models import Lab

# WeasyPrint turns Pillow's LOAD_TRUNCATED_IMAGES on for the whole process when it is imported;
# photo uploads (people/photos.py) must refuse truncated files, so it is turned off again.
ImageFile.LOAD_TRUNCATED_IMAGES = False


class LocalFilesFetcher(URLFetcher):  # type: ignore[misc]  # WeasyPrint has no types
    """Static files and uploads, read from where Django keeps them; every other URL fails."""

    def __init__(self, *, site_url: str):
        super().__init__()
        self.site = urlsplit(site_url).netloc

    def fetch(self, url: str, headers: Any = None) -> Any:
        path = unquote(urlsplit(url).path)
        static_prefix = "/" + settings.STATIC_URL.lstrip("/")
        media_prefix = "/" + settings.MEDIA_URL.lstrip("/")
        if urlsplit(url).netloc == self.site:
            if path.startswith(static_prefix):
                return self.response(url, static_file(path.removeprefix(static_prefix)))
            if path == reverse("identity-css"):
                # The lab's accent (base/identity.py): made here, as the page would serve it.
                lab = Lab.objects.current()
                css = identity.stylesheet(
                    accent=lab.accent_colour,
                    dark_accent=lab.accent_colour_dark,
                    type_scale=lab.type_scale,
                )
                return self.response(url + ".css", css.encode())
            if path.startswith(media_prefix):
                name = path.removeprefix(media_prefix)
                with default_storage.open(name) as file:
                    return self.response(url, file.read())
        raise ValueError(f"Not one of the site's own files: {url}")

    @staticmethod
    def response(url: str, body: bytes) -> URLFetcherResponse:
        content_type = mimetypes.guess_type(urlsplit(url).path)[0] or "application/octet-stream"
        return URLFetcherResponse(url, body=body, headers={"Content-Type": content_type})


def static_file(name: str) -> bytes:
    """From the app folders while developing (as in tests), from STATIC_ROOT once collected."""
    if ".." in name.split("/"):
        raise ValueError(f"Not a static file: {name}")
    found = finders.find(name)
    if found:
        with open(str(found), "rb") as file:
            content: bytes = file.read()
            return content
    with staticfiles_storage.open(name) as file:
        stored: bytes = file.read()
        return stored


# Tagged PDF for screen readers (issue 29): PDF/UA-1 gives the document a structure tree built
# from the HTML's elements (h1 to H1, li to LI, ...), in reading order, its language from
# `<html lang>` and its title from `<title>`, shown as the window's title (DisplayDocTitle).
PDF_VARIANT = "pdf/ua-1"


def pdf_from_html(html: str, *, site_url: str) -> bytes:
    """The page as a tagged PDF, its links made absolute against `site_url` (the site's root,
    as the request reached it), so they still lead to the site from the PDF. Its stylesheet and
    images under /static/ and /media/ are read from disk."""
    fetcher = LocalFilesFetcher(site_url=site_url)
    document = HTML(string=html, base_url=site_url, url_fetcher=fetcher)
    pdf: bytes = document.write_pdf(pdf_variant=PDF_VARIANT)
    return pdf
