"""The pages that compose several apps, and the site's plain endpoints.

Each app's own views show that app's rows. A page that shows rows of several apps (the home
page; a profile with its publications and news; a publication with the news about it) is built
here, above the apps, so no app imports one above it (docs/architecture.md).
"""

from django.db import DatabaseError, connection
from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import require_safe

from directory.site_cache import cached
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
            # Aggregates over every paper of the person (thousands for a prolific member of a
            # department), kept until the next change.
            "publication_count": cached("publication-count", person.pk, publications.count),
            "coauthors": cached(
                "coauthors", person.pk, lambda: list(publications.coauthors_of(person))
            ),
            "news_items": NewsItem.objects.published().about(person)[:PROFILE_NEWS],
        },
    )


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
            # Sorting every paper of a prolific member to find the newest ten reads thousands
            # of rows: kept until the next change.
            "related": cached(
                "related-publications",
                publication.pk,
                lambda: list(
                    Publication.objects.published()
                    .for_listing()
                    .authored_by(members)
                    .exclude(pk=publication.pk)[:RELATED_PUBLICATIONS]
                ),
            ),
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
