from dataclasses import dataclass

from django.db.models import F
from django.http import Http404, HttpRequest, HttpResponsePermanentRedirect
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext

from base.charts import year_chart
from base.filters import canonical_choice
from base.pdf_renders import KeptDocument, pdf_response, to_own_address
from base.site_cache import cached, kept, kept_here, read_ahead
from events.models import Event
from news.models import NewsItem
from outputs.models import Output
from pages.context_processors import current_lab
from pages.views.events import render_with_schedule
from pages.views.network import network_context, network_kept_value, network_url
from pages.views.outputs import section_outputs
from pages.views.projects import section_projects
from people.filters import PersonFilter, facet_options
from people.models import Person
from projects.models import Project
from publications.entries import Listed
from publications.models import CoauthorPair, Publication, external_coauthors_of
from publications.network import member_coauthors
from publications.suggestions.citations import person_citations


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


# A profile shows a few papers, featured first, then the newest; all of them are the
# publication list filtered by the person.
PROFILE_SELECTED = 8
PROFILE_NEWS = 10
PROFILE_COLLABORATORS = 10


def publications_heading(*, shown: int, count: int, featured: bool) -> str:
    """What the profile's list is, said honestly: nobody selects a person's papers, the profile
    shows the papers staff featured first, then the newest. "Publications" when it shows all."""
    if count <= shown:
        return gettext("Publications")
    if featured:
        return gettext("Featured and newest publications")
    return gettext("Newest publications")


def profile(request, slug):
    """/people/<slug>/: the person, a selection of their publications with a chart of all of
    them by year, their co-authors and news."""
    pk, is_published = get_object_or_404(
        Person.objects.visible_to(request.user).values_list("pk", "is_published"), slug=slug
    )
    # The person with every row the profile shows (eleven queries, most of a rendering's time):
    # a published one is the same for every visitor, so kept until the next change. A draft,
    # which only staff preview, is read every time.
    # The kept values below, read from the shared cache in one round trip.
    read_ahead(profile_kept_values(pk, citations=current_lab(request).show_citation_counts))
    person = (
        cached(
            "profile-person",
            pk,
            lambda: profile_person(pk),
            scopes={f"person:{pk}"},
            shows=people_named_by,
        )
        if is_published
        else profile_person(pk)
    )
    if person is None:  # deleted since its row was read
        raise Http404("No person matches the given query.")
    publications = Publication.objects.published().authored_by(person)
    # Their papers per year, over every paper of the person (thousands for a prolific member of
    # a department): kept until their papers change, and right after such a change shown as
    # they were while they are counted anew (at most SITE_CACHE_LAG_SECONDS).
    per_year, counted = kept(
        "profile-counts",
        person.pk,
        publications.count_per_year,
        scopes={f"facets-of:{person.pk}"},
        lags=True,
    )
    # Their co-authors in and outside the lab: kept until who wrote their papers or anyone's
    # name changes (not a paper's title), never late (who wrote with them is not a count). Both
    # read the co-author pair rows rather than every paper of theirs (at 200,000 papers: 340 →
    # 100 ms on PostgreSQL); the outsiders still read every author row of their papers (40-60
    # ms on SQLite), which a title edited no longer makes again.
    coauthors, external_coauthors = cached(
        "profile-people",
        person.pk,
        lambda: (
            member_coauthors(person.pk),
            # Their papers from the pair rows, not from every author row of theirs.
            list(
                external_coauthors_of(CoauthorPair.objects.papers_of(person.pk))[
                    :PROFILE_COLLABORATORS
                ]
            ),
        ),
        scopes={f"facets-of:{person.pk}", "people"},
    )
    # The selection of their papers, in the order of their titles too: until any of their
    # papers changes (three small queries; its entries are kept by publications.entries).
    selected, featured = cached(
        "profile-selection",
        person.pk,
        lambda: selection(person.pk),
        scopes={f"papers-of:{person.pk}"},
    )
    all_of_them = f"{reverse('publications:index')}?author={person.slug}"
    network = network_context(("person", person.pk), publications, centre=person.pk)
    return render_with_schedule(
        request,
        "people/person_detail.html",
        {
            "person": person,
            "publications": selected,
            "publication_count": sum(per_year.values()),
            "publications_heading": publications_heading(
                shown=len(selected), count=sum(per_year.values()), featured=featured
            ),
            "all_publications_url": all_of_them,
            "counted": counted,
            # Drawn only when the profile's kept chart is out of date.
            "chart": SimpleLazyObject(
                lambda: year_chart(
                    per_year,
                    link=lambda year: f"{all_of_them}&year_min={year}&year_max={year}",
                )
            ),
            "coauthors": coauthors,
            "external_coauthors": external_coauthors,
            "news_items": NewsItem.objects.published().about(person)[:PROFILE_NEWS],
            "outputs": section_outputs(("person", person.pk), Output.objects.by(person)),
            "projects": section_projects(
                ("person", person.pk), Project.objects.with_person(person)
            ),
            # Only when staff turned them on (the lab row is base.html's, read once).
            "citations": cached(
                "profile-citations",
                person.pk,
                lambda: person_citations(publications),
                scopes={f"papers-of:{person.pk}"},
            )
            if current_lab(request).show_citation_counts
            else "",
            **network,
            "network_url": network_url("person", person.slug),
        },
        events=Event.objects.published().given_by(person),
    )


def selection(person: int) -> tuple[list[Listed], bool]:
    """The first PROFILE_SELECTED of the member `person`'s published papers, featured ones
    first, then the newest, and whether any is featured (then the first is). Three small
    queries (PublicationQuerySet.first_of_member), none sorting all of their papers."""
    candidates = Publication.objects.published().first_of_member(person, PROFILE_SELECTED)
    ordered = candidates.order_by("-is_featured", F("year").desc(nulls_last=True), "title")
    rows = list(ordered.values_list(*Listed._fields, "is_featured")[:PROFILE_SELECTED])
    selected = [Listed(*row[:-1]) for row in rows]
    return selected, bool(rows) and rows[0][-1]


def profile_person(pk: int) -> Person | None:
    return Person.objects.for_profile().filter(pk=pk).first()


def people_named_by(person: Person | None) -> set[str]:
    """The other people a profile's person shows (its advisors, students and close
    collaborators, by name and link), whose own edits it follows: `person:<pk>` each (an
    outsider names no scope: their edits move everything)."""
    if person is None:
        return set()
    others = [
        *(advising.advisor_id for advising in person.advisors.all()),
        *(advising.advisee_id for advising in person.students.all()),
        *(collaboration.collaborator_id for collaboration in person.collaborations.all()),
    ]
    return {f"person:{other}" for other in others}


def profile_kept_values(pk: int, *, citations: bool) -> list[tuple[str, object]]:
    """The kept values (names and parts) a profile asks for, in the order it asks."""
    values: list[tuple[str, object]] = [
        ("profile-person", pk),
        ("profile-counts", pk),
        ("profile-people", pk),
        ("profile-selection", pk),
        network_kept_value(("person", pk), centre=pk),
        ("section-outputs", ("person", pk)),
        ("section-projects", ("person", pk)),
    ]
    return [*values, ("profile-citations", pk)] if citations else values


@dataclass(frozen=True)
class PublicationGroup:
    type: str
    label: str
    publications: list[Publication]


def by_type(publications) -> list[PublicationGroup]:
    """Publications under their type's heading, in the order the types are declared
    (conference papers, journal articles, ...), each group newest first."""
    groups: dict[str, list[Publication]] = {value: [] for value in Publication.Type.values}
    for publication in publications:
        groups[publication.type].append(publication)
    return [
        PublicationGroup(value, str(label), groups[value])
        for value, label in Publication.Type.choices
        if groups[value]
    ]


def cv_context(request, slug) -> dict:
    """What a CV shows, from the rows the profile shows: a fixed number of queries."""
    person = get_object_or_404(Person.objects.visible_to(request.user).for_profile(), slug=slug)
    publications = Publication.objects.published().authored_by(person).for_listing()
    return {"person": person, "publication_groups": by_type(publications)}


def cv(request, slug):
    """/people/<slug>/cv/: the profile as a CV, laid out for printing."""
    return render(request, "people/person_cv.html", cv_context(request, slug))


def cv_pdf(request, slug):
    """/people/<slug>/cv.pdf: the same page as the printable CV, printed by WeasyPrint; for
    visitors by the task worker, once per change (base/pdf_renders.py)."""
    if (redirect := to_own_address(request)) is not None:
        return redirect
    if request.user.is_authenticated:  # with the drafts a staff member may see
        people = Person.objects.visible_to(request.user).filter(slug=slug)
        pk = people.values_list("pk", flat=True).first()
    else:
        # No query: under a flood of such requests each costs a millisecond less (benchmarks/
        # README.md, "/healthz under the attack").
        pk = published_people().get(slug)
    if pk is None:
        raise Http404("No such person.")  # before anything is queued for an address
    # Imported here: the tasks import this module.
    from pages.tasks import print_cv_pdf

    return pdf_response(
        request,
        filename=f"{slug}-cv.pdf",
        print_later=lambda: print_cv_pdf.enqueue(request.build_absolute_uri(request.path), slug),
        **kept_cv_pdf(request, slug, pk),
    )


def kept_cv_pdf(request: HttpRequest, slug: str, pk: int) -> KeptDocument:
    """A member's CV PDF among the kept copies, for the view and the worker that prints it:
    named by the member too, so that a slug freed and taken by another member is another
    document (the previous copy served while one prints is found by these)."""
    return KeptDocument(
        name="cv-pdf",
        parts=(slug, pk),
        render=lambda: cv_pdf_document(request, slug),
        scopes=cv_scopes(pk),
    )


def published_people() -> dict[str, int]:
    """Each published member's pk by slug, kept in this process until anyone's row changes:
    a few thousand at most in a department."""
    return kept_here(
        "published-people",
        lambda: dict(Person.objects.published().values_list("slug", "pk")),
        scopes={"people"},
    )


def cv_scopes(pk: int) -> set[str]:
    """What a CV shows: the member's own rows, their papers, and names (base/caches.py).
    A save of another member's paper keeps their PDF."""
    return {f"person:{pk}", f"papers-of:{pk}", "people"}


def cv_pdf_document(request, slug) -> bytes:
    """The CV as `request`'s user sees it, printed (seconds for a long CV). Raises Http404."""
    context = {**cv_context(request, slug), "for_pdf": True}
    html = render_to_string("people/person_cv.html", context, request=request)
    # Imported here: WeasyPrint loads Pango when imported, and a site without it serves
    # every other page.
    from base.documents import pdf_from_html

    return pdf_from_html(html, site_url=request.build_absolute_uri("/"))
