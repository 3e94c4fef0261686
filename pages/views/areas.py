"""/areas/: the list of research areas and an area's page."""

from django.db.models import Count
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from base.charts import year_chart
from base.site_cache import cached
from outputs.models import Output
from pages.views.network import network_context, network_url
from pages.views.outputs import section_outputs
from pages.views.projects import section_projects
from people.models import Person, ResearchArea, ResearchGroup
from projects.models import Project
from publications.entries import listed
from publications.models import Publication

# An area's page lists its newest papers; all of them are the publication list's area filter.
AREA_PUBLICATIONS = 50


def published_per_area(through, column: str, published) -> dict[int, int]:
    """How many published rows (`published`, a queryset) each area has, through the
    many-to-many table `through` whose `column` points at them: one query for every area."""
    rows = (
        through.objects.filter(**{f"{column}__in": published})
        .values("researcharea")
        .annotate(count=Count(column))
    )
    return {row["researcharea"]: row["count"] for row in rows}


def areas(request):
    """/areas/: a card per research area, with the first lines of its description and how many
    people, groups and papers it has (three queries for all areas). A 404 while there is none."""
    research_areas = list(ResearchArea.objects.published())
    if not research_areas:
        raise Http404("This site has no research areas.")
    counts = {
        "people": published_per_area(
            Person.research_areas.through, "person", Person.objects.published()
        ),
        "groups": published_per_area(
            ResearchGroup.areas.through, "researchgroup", ResearchGroup.objects.published()
        ),
        "publications": published_per_area(
            Publication.areas.through, "publication", Publication.objects.published()
        ),
    }
    for research_area in research_areas:
        for name, per_area in counts.items():
            setattr(research_area, f"{name}_count", per_area.get(research_area.pk, 0))
    return render(request, "areas/area_list.html", {"areas": research_areas})


def area(request, slug):
    """/areas/<slug>/: the research area's people, groups and newest papers, with a chart of
    all its papers by year."""
    area = get_object_or_404(ResearchArea.objects.visible_to(request.user), slug=slug)
    publications = Publication.objects.published().in_areas(area)
    # Over every paper of the area, as a profile's: kept until the next change.
    per_year, newest = cached(
        "area-publications",
        area.pk,
        lambda: (publications.count_per_year(), listed(publications[:AREA_PUBLICATIONS])),
        scopes={"publications"},
    )
    all_of_them = f"{reverse('publications:index')}?area={area.slug}"
    return render(
        request,
        "areas/area_detail.html",
        {
            "area": area,
            "people": Person.objects.published().in_areas(area).for_directory(),
            "groups": ResearchGroup.objects.published().filter(areas=area),
            "publications": newest,
            "outputs": section_outputs(("area", area.pk), Output.objects.in_areas(area)),
            "projects": section_projects(("area", area.pk), Project.objects.in_areas(area)),
            "publication_count": sum(per_year.values()),
            "all_publications_url": all_of_them,
            "chart": year_chart(
                per_year,
                link=lambda year: f"{all_of_them}&year_min={year}&year_max={year}",
            ),
            **network_context(("area", area.pk), publications),
            "network_url": network_url("area", area.slug),
        },
    )
