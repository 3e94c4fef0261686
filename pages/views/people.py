from django.http import Http404, HttpResponsePermanentRedirect
from django.shortcuts import render

from directory.filters import canonical_choice
from people.filters import PersonFilter, facet_options
from people.models import Person, ResearchArea, ResearchGroup

# A profile (/people/<slug>/) shows the person's publications and news too, so it is composed
# above the apps: pages/views/composed.py.


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
    such an address, when no research group has that slug, moves to `?role=` with every value
    it gave (the role filter then reads them as it reads its own). Reads only the choices the
    filters have read already."""
    values = request.GET.getlist("group")
    if not values or "role" in request.GET or "group" not in filterset.form.errors:
        return None
    roles = filterset.filters["role"].extra["choices"]
    if any(canonical_choice(roles, value) not in dict(roles) for value in values):
        return None
    query = request.GET.copy()
    query.setlist("role", query.pop("group"))
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
