from django.shortcuts import get_object_or_404, render

from directory.pagination import paginate
from publications.filters import PublicationFilter, active_filters, facets
from publications.models import Authorship, Publication

PER_PAGE = 50


def index(request):
    publications = Publication.objects.published().for_listing()
    filterset = PublicationFilter(request.GET, queryset=publications)
    page = paginate(request, filterset.qs, per_page=PER_PAGE)
    return render(
        request,
        "publications/publication_list.html",
        {
            "filterset": filterset,
            "page": page,
            "facets": facets(filterset),
            "active_filters": active_filters(filterset),
            "ignored": filterset.ignored_values(),
        },
    )


def detail(request, slug):
    publication = get_object_or_404(Publication.objects.published().for_listing(), slug=slug)
    members = [
        a.person for a in publication.authorships.all() if a.person and a.person.is_published
    ]
    related = (
        Publication.objects.published()
        .for_listing()
        .filter(pk__in=Authorship.objects.filter(person__in=members).values("publication"))
        .exclude(pk=publication.pk)[:10]
    )
    return render(
        request,
        "publications/publication_detail.html",
        {
            "publication": publication,
            "members": members,
            "related": related,
            "news_items": publication.news_items.published()[:5],
        },
    )
