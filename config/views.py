"""The pages that compose several apps, and the site's plain endpoints.

Each app's own views show that app's rows. A page that shows rows of several apps (the home
page; a profile with its publications and news; a publication with the news about it) is built
here, above the apps, so no app imports one above it (docs/architecture.md).
"""

from dataclasses import dataclass

from django.db import DatabaseError, connection
from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import require_safe

from directory.documents import pdf_from_html
from news.models import NewsItem
from people.models import Person
from publications import exports
from publications.models import Publication

HOME_NEWS = 5
HOME_PUBLICATIONS = 6
# A profile lists the newest ones; the full list is the publication list filtered by the person.
PROFILE_PUBLICATIONS = 50
PROFILE_NEWS = 10
RELATED_PUBLICATIONS = 10
PUBLICATION_NEWS = 5


def home(request):
    publications = Publication.objects.published().for_listing()
    return render(
        request,
        "home.html",
        {
            "news_items": NewsItem.objects.published().for_listing()[:HOME_NEWS],
            "featured": publications.filter(is_featured=True)[:HOME_PUBLICATIONS],
            "recent": publications.filter(is_featured=False)[:HOME_PUBLICATIONS],
            "people": Person.objects.published().for_directory().current(),
        },
    )


def profile(request, slug):
    """/people/<slug>/: the person, their publications, co-authors and news."""
    person = get_object_or_404(Person.objects.visible_to(request.user).for_profile(), slug=slug)
    publications = Publication.objects.published().authored_by(person)
    return render(
        request,
        "people/person_detail.html",
        {
            "person": person,
            "publications": publications.for_listing()[:PROFILE_PUBLICATIONS],
            "publication_count": publications.count(),
            "coauthors": publications.coauthors_of(person),
            "news_items": NewsItem.objects.published().about(person)[:PROFILE_NEWS],
        },
    )


@dataclass(frozen=True)
class PublicationGroup:
    type: str
    label: str
    publications: list[Publication]


def by_type(publications) -> list[PublicationGroup]:
    """Publications under their type's heading, in the order the types are declared
    (conference papers, journal articles, ...), each group newest first."""
    groups: dict[str, list[Publication]] = {value: [] for value in Publication.Type.values}
    for publication in publications:
        groups[publication.type].append(publication)
    return [
        PublicationGroup(value, label, groups[value])
        for value, label in Publication.Type.choices
        if groups[value]
    ]


def cv_context(request, slug) -> dict:
    """What a CV shows, from the rows the profile shows: a fixed number of queries."""
    person = get_object_or_404(Person.objects.visible_to(request.user).for_profile(), slug=slug)
    publications = Publication.objects.published().authored_by(person).for_listing()
    return {"person": person, "publication_groups": by_type(publications)}


def cv(request, slug):
    """/people/<slug>/cv/: the profile as a CV, laid out for printing."""
    return render(request, "people/person_cv.html", cv_context(request, slug))


def cv_pdf(request, slug):
    """/people/<slug>/cv.pdf: the same page as the printable CV, printed by WeasyPrint."""
    context = {**cv_context(request, slug), "for_pdf": True}
    html = render_to_string("people/person_cv.html", context, request=request)
    pdf = pdf_from_html(html, site_url=request.build_absolute_uri("/"))
    response = HttpResponse(pdf, content_type="application/pdf")
    filename = f"{context['person'].slug}-cv.pdf"
    response["Content-Disposition"] = content_disposition_header(False, filename)
    return response


def publication(request, slug):
    """/publications/<slug>/: the publication, its members' other papers and its news."""
    publication = get_object_or_404(
        Publication.objects.visible_to(request.user).for_listing(), slug=slug
    )
    members = publication.published_members
    return render(
        request,
        "publications/publication_detail.html",
        {
            "publication": publication,
            "members": members,
            "related": Publication.objects.published()
            .for_listing()
            .authored_by(members)
            .exclude(pk=publication.pk)[:RELATED_PUBLICATIONS],
            "news_items": NewsItem.objects.published().mentioning(publication)[:PUBLICATION_NEWS],
            "bibtex": exports.bibtex([publication]),
        },
    )


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
