from django.shortcuts import render

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
            "ignored": filterset.notices(),
            "count": len(members),
        },
    )
