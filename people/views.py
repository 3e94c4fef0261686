from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

from people.avatars import initials_avatar_png
from people.filters import PersonFilter
from people.models import Person

# A profile (/people/<slug>/) shows the person's publications and news too, so it is composed
# above the apps: config/views.py.


def index(request):
    people = Person.objects.published().for_directory()
    filterset = PersonFilter(request.GET, queryset=people)
    members = list(filterset.qs)
    return render(
        request,
        "people/person_list.html",
        {
            "filterset": filterset,
            "current": [person for person in members if not person.is_alumnus],
            "alumni": [person for person in members if person.is_alumnus],
            "ignored": filterset.ignored_values(),
            "count": len(members),
        },
    )


@require_safe
@cache_control(public=True, max_age=7 * 24 * 3600)
def avatar(request, initials):
    return HttpResponse(initials_avatar_png(initials), content_type="image/png")
