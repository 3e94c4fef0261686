"""/network/: who wrote papers with whom, for the whole lab or one person, group or area, in
the years a visitor chooses; the same picture, all years, on each profile, group and area."""

from typing import Any

from django import forms
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext_lazy

from base.partial_dates import FIRST_YEAR, LAST_YEAR
from base.site_cache import kept
from people.models import Person, ResearchArea, ResearchGroup
from publications.filters import PublicationFilterForm
from publications.models import CoauthorPair, Publication
from publications.network import coauthor_network


class NetworkForm(PublicationFilterForm):
    """The years to draw; a year out of bounds or not a number is reported and left out."""

    year_min = forms.IntegerField(
        label=gettext_lazy("From year"), required=False, min_value=FIRST_YEAR, max_value=LAST_YEAR
    )
    year_max = forms.IntegerField(
        label=gettext_lazy("To year"), required=False, min_value=FIRST_YEAR, max_value=LAST_YEAR
    )


def network_context(
    scope: tuple[str, int],
    publications: QuerySet[Publication],
    *,
    centre: int | None = None,
    years: tuple[int | None, int | None] = (None, None),
) -> dict[str, Any]:
    """The network of `publications` (`scope`'s: the lab's, a person's, a group's or an
    area's) in `years`, ready for includes/coauthor_network.html: kept until a change of the
    papers or of anyone's name, and right after one shown as it was while it is counted anew
    (at most SITE_CACHE_LAG_SECONDS, base/caches.py), so a page shows it at no query and
    an edit does not wait for the count. The lab's and a person's are read from the pair rows
    alone (every published paper, or the person's)."""
    kind, pk = scope
    if kind == "lab":
        pairs = CoauthorPair.objects.all()
    elif kind == "person":
        pairs = CoauthorPair.objects.of_member(pk)
    else:
        pairs = CoauthorPair.objects.of_papers(publications)
    pairs = pairs.in_years(*years)

    def compute():
        network = coauthor_network(pairs)
        return network, network.drawing(centre=centre)

    # A member's network is drawn from their own papers; a group's, an area's or the lab's from
    # everyone's. Names show in both.
    # Drawn from the pair rows (who wrote with whom, and the paper's year): a paper's title
    # edited leaves it kept.
    follows = {f"facets-of:{pk}", "people"} if kind == "person" else {"facets", "people"}
    (network, drawing), version = kept(
        *network_kept_value(scope, years=years, centre=centre),
        compute,
        scopes=follows,
        lags=True,
    )
    # The picture and its table as HTML are kept under the network's digest (a {% cache %}
    # fragment): drawn anew for a profile after every edit, they took longer than its queries.
    return {"network": network, "drawing": drawing, "network_version": version}


def network_kept_value(
    scope: tuple[str, int],
    *,
    years: tuple[int | None, int | None] = (None, None),
    centre: int | None = None,
) -> tuple[str, object]:
    """The name and parts `network_context` keeps a network under (a profile reads it ahead)."""
    return "coauthor-network", (scope, years, centre)


def network(request):
    """/network/: the lab's co-author network, or with ?person=, ?group= or ?area= (a slug)
    that one's, in the years ?year_min= to ?year_max=."""
    publications = Publication.objects.published()
    subject: Person | ResearchGroup | ResearchArea | None = None
    centre = None
    scope: tuple[str, int] = ("lab", 0)
    if slug := request.GET.get("person"):
        # Named apart from `subject` (a person, group or area) for authored_by, which takes a
        # person; the group below likewise for of_groups.
        person: Person = get_object_or_404(Person.objects.published(), slug=slug)
        subject = person
        publications = publications.authored_by(person)
        centre, scope = subject.pk, ("person", subject.pk)
    elif slug := request.GET.get("group"):
        group: ResearchGroup = get_object_or_404(ResearchGroup.objects.published(), slug=slug)
        subject = group
        publications, scope = publications.of_groups(group), ("group", subject.pk)
    elif slug := request.GET.get("area"):
        subject = get_object_or_404(ResearchArea.objects.published(), slug=slug)
        publications, scope = publications.in_areas(subject), ("area", subject.pk)
    form = NetworkForm(request.GET)
    form.is_valid()
    cleaned = form.cleaned_data
    years = (cleaned.get("year_min"), cleaned.get("year_max"))
    return render(
        request,
        "network/network.html",
        {
            **network_context(scope, publications, centre=centre, years=years),
            "form": form,
            "subject": subject,
            "scope_name": scope[0],
            "corrections": getattr(form, "corrections", []),
        },
    )


def network_url(kind: str, slug: str) -> str:
    """The network page for one person, group or area, where its years can be chosen."""
    return f"{reverse('network')}?{kind}={slug}"
