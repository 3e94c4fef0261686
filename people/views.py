from django.http import Http404, HttpResponsePermanentRedirect
from django.shortcuts import render

from people.filters import PersonFilter, facet_options
from people.models import Person, ResearchArea, ResearchGroup

# A profile (/people/<slug>/) shows the person's publications and news too, so it is composed
# above the apps: config/views.py.


def index(request):
    people = Person.objects.published().for_directory()
    filterset = PersonFilter(request.GET, queryset=people)
    if moved := role_address(request, filterset):
        return moved
    members = list(filterset.qs)
    return render(
        request,
        "people/person_list.html",
        {
            "filterset": filterset,
            "options": facet_options(filterset),
            "current": [person for person in members if not person.is_alumnus],
            "alumni": [person for person in members if person.is_alumnus],
            "ignored": filterset.notices(),
            "count": len(members),
        },
    )


def role_address(request, filterset: PersonFilter) -> HttpResponsePermanentRedirect | None:
    """`?group=` named a role group ("phd-students") before research groups took the name;
    such an address, when no research group has that slug, moves to `?role=`. Reads only the
    choices the filters have read already."""
    value = request.GET.get("group")
    if not value or "role" in request.GET or "group" not in filterset.form.errors:
        return None
    if value not in dict(filterset.filters["role"].extra["choices"]):
        return None
    query = request.GET.copy()
    query["role"] = query.pop("group")[-1]
    return HttpResponsePermanentRedirect(f"{request.path}?{query.urlencode()}")


def groups(request):
    """/groups/: each research group with its leaders and number of members. Not offered (a
    404, and no link in the header) while the site has no group."""
    research_groups = list(ResearchGroup.objects.published().for_index())
    if not research_groups:
        raise Http404("This site has no research groups.")
    return render(request, "groups/group_list.html", {"groups": research_groups})


def areas(request):
    """/areas/: the research areas, each linking to its page. A 404 while there is none."""
    research_areas = list(ResearchArea.objects.published())
    if not research_areas:
        raise Http404("This site has no research areas.")
    return render(request, "areas/area_list.html", {"areas": research_areas})
