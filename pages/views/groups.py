"""/groups/: the list of research groups and a group's page."""

from itertools import groupby

from django.db.models import Prefetch
from django.http import Http404, QueryDict
from django.shortcuts import get_object_or_404, render

from events.models import Event
from news.models import NewsItem
from outputs.models import Output
from pages.views.events import render_with_schedule
from pages.views.network import network_context, network_url
from pages.views.outputs import section_outputs
from pages.views.projects import section_projects
from pages.views.publications import listing_context
from people.models import Membership, Person, ResearchArea, ResearchGroup
from projects.models import Project
from publications.models import Publication

GROUP_NEWS = 10


def groups(request):
    """/groups/: each research group with its leaders and number of members. Not offered (a
    404, and no link in the header) while the site has no group."""
    research_groups = list(ResearchGroup.objects.published().for_index())
    if not research_groups:
        raise Http404("This site has no research groups.")
    return render(request, "groups/group_list.html", {"groups": research_groups})


def group(request, slug):
    """/groups/<slug>/: the group's people by role, its papers (its members' while they were
    members, with the publication list's filters), its news and its alumni."""
    areas = Prefetch("areas", queryset=ResearchArea.objects.published())
    group = get_object_or_404(
        ResearchGroup.objects.visible_to(request.user).prefetch_related(areas), slug=slug
    )
    memberships = (
        group.memberships.listed()
        .select_related("person__role_group", "person__departure")
        .prefetch_related("person__links")
    )
    people_by_role = [
        (Membership.Role(role).label, [membership.person for membership in rows])
        for role, rows in groupby(memberships, key=lambda membership: membership.role)
    ]
    publications = Publication.objects.published().of_groups(group).for_listing()
    listing = listing_context(request, publications, scope=("group", group.pk), without=("group",))
    # Its exports and feed are the publication list's, narrowed to the group.
    scoped = QueryDict(mutable=True)
    scoped["group"] = group.slug
    export_query = f"?{scoped.urlencode()}" + listing["filters_query"].replace("?", "&", 1)
    return render_with_schedule(
        request,
        "groups/group_detail.html",
        {
            **listing,
            "group": group,
            "people_by_role": people_by_role,
            "alumni": Person.objects.published()
            .former_members_of(group)
            .for_directory()
            .order_by("name"),
            "news_items": NewsItem.objects.published().of_group(group).for_listing()[:GROUP_NEWS],
            "export_query": export_query,
            "outputs": section_outputs(("group", group.pk), Output.objects.of_groups(group)),
            "projects": section_projects(("group", group.pk), Project.objects.of_groups(group)),
            **network_context(
                ("group", group.pk), Publication.objects.published().of_groups(group)
            ),
            "network_url": network_url("group", group.slug),
        },
        events=Event.objects.published().of_group(group),
    )
