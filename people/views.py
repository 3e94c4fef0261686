from django.db.models import Count
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

from people.avatars import initials_avatar_png
from people.filters import PersonFilter
from people.models import Person
from publications.models import Authorship, Publication

PROFILE_PUBLICATIONS = 50


def index(request):
    people = Person.objects.published().for_directory()
    filterset = PersonFilter(request.GET, queryset=people)
    members = list(filterset.qs)
    return render(
        request,
        "people/person_list.html",
        {
            "filterset": filterset,
            "current": [person for person in members if not is_alumnus(person)],
            "alumni": [person for person in members if is_alumnus(person)],
            "ignored": filterset.ignored_values(),
            "count": len(members),
        },
    )


def is_alumnus(person: Person) -> bool:
    return person.role_group is not None and person.role_group.is_alumni


def detail(request, slug):
    person = get_object_or_404(Person.objects.visible_to(request.user).for_profile(), slug=slug)
    authored = Authorship.objects.filter(person=person).values("publication")
    publications = Publication.objects.published().filter(pk__in=authored)
    coauthors = (
        Person.objects.published()
        .filter(authorships__publication__in=publications.values("pk"))
        .exclude(pk=person.pk)
        .annotate(shared=Count("authorships__publication", distinct=True))
        .order_by("-shared", "name")
    )
    return render(
        request,
        "people/person_detail.html",
        {
            "person": person,
            # The newest ones; the full list is the publication list filtered by this person.
            "publications": publications.for_listing()[:PROFILE_PUBLICATIONS],
            "publication_count": publications.count(),
            "coauthors": coauthors,
            "news_items": person.news_items.published()[:10],
        },
    )


@require_safe
@cache_control(public=True, max_age=7 * 24 * 3600)
def avatar(request, initials):
    return HttpResponse(initials_avatar_png(initials), content_type="image/png")
