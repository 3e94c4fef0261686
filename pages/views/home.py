"""The site's root: the home page, and the plain endpoints beside it (robots.txt, the
favicon, the lab's identity stylesheet, /healthz)."""

from django.db import DatabaseError, connection
from django.http import (
    HttpResponse,
    HttpResponsePermanentRedirect,
    HttpResponseRedirect,
    JsonResponse,
)
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import require_safe

from base import identity
from base.site_cache import cached
from news.models import NewsItem
from pages.context_processors import current_lab
from people.models import Person
from publications.entries import listed
from publications.models import Publication

HOME_NEWS = 5
HOME_PUBLICATIONS = 6


def home(request):
    publications = Publication.objects.published().for_listing()
    # The newest featured papers are found by walking the list order past every other paper
    # (15 ms at 200,000 papers): kept until the next change.
    featured, recent = cached(
        "home-publications",
        None,
        lambda: (
            listed(publications.filter(is_featured=True)[:HOME_PUBLICATIONS]),
            listed(publications.filter(is_featured=False)[:HOME_PUBLICATIONS]),
        ),
        scopes={"publications"},
    )
    return render(
        request,
        "home.html",
        {
            "news_items": NewsItem.objects.published()
            .for_listing()
            .with_publications()[:HOME_NEWS],
            "featured": featured,
            "recent": recent,
            "people": Person.objects.published().for_directory().current(),
        },
    )


@require_safe
@cache_control(public=True, max_age=24 * 3600)
def favicon(request):
    """/favicon.ico, which browsers, feed readers and crawlers ask for whatever the page's
    <link rel="icon"> says: the site's icon, not a 404 page rendered (and logged) each time."""
    lab = current_lab(request)
    if lab.favicon_32:
        return HttpResponseRedirect(lab.favicon_32.url)
    return HttpResponsePermanentRedirect(static("img/favicon.svg"))


@require_safe
def identity_css(request):
    """The lab's accent colour and type scale as custom properties (base/identity.py): a
    stylesheet, not an inline style, so the Content-Security-Policy can forbid inline styles.
    Its address carries the identity's stamp, so an address that names the current stamp is
    kept for a year; any other is answered afresh and kept only briefly."""
    lab = current_lab(request)
    response = HttpResponse(
        identity.stylesheet(
            accent=lab.accent_colour,
            dark_accent=lab.accent_colour_dark,
            type_scale=lab.type_scale,
        ),
        content_type="text/css; charset=utf-8",
    )
    if request.GET.get("v") == lab.identity_stamp:
        patch_cache_control(response, public=True, max_age=365 * 24 * 3600, immutable=True)
    else:
        patch_cache_control(response, public=True, max_age=60)
    return response


@require_safe
@cache_control(public=True, max_age=24 * 3600)
def robots_txt(request):
    """Crawlers may read every public page, but not the admin, and not every combination of
    filters as a download."""
    lines = [
        "User-agent: *",
        "Disallow: /admin/",
        f"Disallow: {reverse('publications:index')}export.",
        "",
        f"Sitemap: {request.build_absolute_uri(reverse('sitemap'))}",
    ]
    return HttpResponse("\n".join(lines) + "\n", content_type="text/plain; charset=utf-8")


@require_safe
@never_cache
def healthz(request):
    """For load balancers: 200 when the database answers, 503 when it does not."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        return JsonResponse({"status": "error", "database": "unreachable"}, status=503)
    return JsonResponse({"status": "ok", "database": "ok"})
