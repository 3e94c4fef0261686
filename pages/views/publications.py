import functools
import re
from collections.abc import Iterator
from itertools import chain, islice
from typing import cast

from axes.helpers import get_client_ip_address
from django.db.models import prefetch_related_objects
from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, render
from django.template import Context
from django.template.loader import get_template, render_to_string
from django.utils.functional import SimpleLazyObject
from django.utils.http import content_disposition_header
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import pgettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_safe

from base.charts import year_chart
from base.pagination import paginate
from base.roles import person_of
from base.site_cache import cached, cached_each, kept, updated
from base.translations import shown
from events.models import Event
from news.models import NewsItem
from outputs.models import Output
from pages.context_processors import current_lab
from pages.views.projects import paper_funding
from projects.filters import FundedPublicationFilter, funder_facet
from publications import exports, search
from publications.claims.forms import ClaimForm, CorrectionForm
from publications.claims.models import Claim
from publications.entries import Listed, listed
from publications.feeds import plain_text
from publications.filters import (
    PublicationFilter,
    active_filters,
    award_count,
    facets,
    filters_query,
    in_chosen_years,
    year_counts,
    year_link,
    year_options,
)
from publications.models import (
    Publication,
    PublicationQuerySet,
    listing_prefetches,
    only_paper_written,
)
from publications.related import MODEL_SCOPE, related_ids
from publications.services import ClaimRefused, claim_author, send_correction
from publications.suggestions.citations import paper_citations

PER_PAGE = 50
# An export of any size is one response, written this many papers at a time: a fixed number of
# queries per chunk, and the server holds about two chunks however many papers match (a year
# at 200,000 papers, or all of them). A lab's whole list fits in one chunk and is sent whole,
# so the page cache keeps it as before.
EXPORT_CHUNK_ROWS = 1000


def index(request):
    publications = Publication.objects.published().for_listing()
    return render(
        request, "publications/publication_list.html", listing_context(request, publications)
    )


def listing_context(
    request, publications, *, scope: object = None, without: tuple[str, ...] = ()
) -> dict:
    """A filtered, faceted, paginated list of `publications` (for_listing()) with its year
    chart: what /publications/ shows, and a group's page shows of its papers
    (pages/views/groups.py). `scope` names what narrowed `publications` (a group), for the cache."""
    # With the funder filter (projects/filters.py): publications may not import projects.
    filterset = FundedPublicationFilter(request.GET, queryset=publications, without=without)
    filterset.form.is_valid()
    list_key = (scope, without, sorted(filterset.form.cleaned_data.items()))
    # Counted once per filter until the papers or people change, for every page of it: at
    # 200,000 papers the count, the facets, the award count and the years read most of the
    # table. Right after a change the previous counts are shown while they are counted anew
    # (at most SITE_CACHE_LAG_SECONDS after it): the list's rows and entries are never late.
    (count, facet_options, awards, years), counted = kept(
        "publication-counts",
        list_key,
        lambda: (
            filterset.qs.count(),
            {**facets(filterset), **funder_facet(filterset)},
            award_count(filterset),
            year_counts(filterset),
        ),
        scopes=counts_scopes(filterset),
        lags=True,
    )
    page = paginate(request, filterset.qs, per_page=PER_PAGE, count=count)
    # A page's rows too: a member's or a search's 50 newest papers are found by sorting all
    # their papers (28,000 for a common word at 200,000 papers), which no index can spare.
    # Sliced by the page's number, not by the count, which may be late by a paper or two.
    first = (page.number - 1) * PER_PAGE
    if filterset.form.cleaned_data.get("q") and page.number == 1:
        # A search's first page follows every paper's words: after an edit it is brought up
        # to date from the papers edited (search_rows_updated), not sorted anew.
        page.object_list = updated(
            "publication-list-page",
            (*list_key, "first", SEARCH_ROWS_KEPT),
            lambda: search_rows(filterset.qs),
            lambda rows, papers: search_rows_updated(filterset, rows, papers),
            scopes=rows_scopes(filterset),
        )[0][:PER_PAGE]
    else:
        page.object_list = cached(
            "publication-list-page",
            (*list_key, page.number),
            lambda: listed(filterset.qs[first : first + PER_PAGE]),
            scopes=rows_scopes(filterset),
        )
    return {
        "filterset": filterset,
        "page": page,
        "facets": facet_options,
        "award_count": awards,
        "year_options": year_options(filterset, years),
        "year_controls": [
            ("year_min", pgettext("years", "From"), filterset.form.cleaned_data.get("year_min")),
            ("year_max", pgettext("years", "To"), filterset.form.cleaned_data.get("year_max")),
        ],
        # Drawn only when the chart is not kept already.
        "chart": SimpleLazyObject(
            lambda: year_chart(
                years,
                link=lambda year: year_link(filterset, year),
                selected=lambda year: in_chosen_years(filterset, year),
            )
        ),
        "active_filters": active_filters(filterset),
        "ignored": filterset.notices(),
        "filters_query": filters_query(filterset),
        # What the filter panel and the chart are drawn from, beside the counts: the query as
        # given (their links keep its values and their order), whatever the page number.
        "panel_key": (scope, without, [item for item in request.GET.lists() if item[0] != "page"]),
        # A digest of the counts: the panel and the chart are drawn from them.
        "counted": counted,
    }


# The rows a search's first page keeps: the page and a margin, so that papers edited out of
# it leave the rest a whole page.
SEARCH_ROWS_KEPT = PER_PAGE + 20

# A search's first rows in the list's order, and whether they are all its matches.
SearchRows = tuple[list[Listed], bool]


def search_rows(matches: PublicationQuerySet) -> SearchRows:
    """The first SEARCH_ROWS_KEPT of `matches`, which sorting every match finds (28,000 for a
    common word at 200,000 papers)."""
    rows = listed(matches[:SEARCH_ROWS_KEPT])
    return rows, len(rows) < SEARCH_ROWS_KEPT


def search_rows_updated(
    filterset: PublicationFilter, kept: SearchRows, papers: set[int]
) -> SearchRows | None:
    """`kept` (search_rows) after `papers` were edited, which may have joined the matches,
    left them or moved: the rows kept but those papers, and those papers that match now,
    sorted by the database (one query by key, no sort of every match), up to the last row
    kept (a paper edited to sort after it may come after rows never read). None when fewer
    than a page are left: search_rows again. The filters (`filterset`'s) are applied anew to
    those papers alone."""
    rows, complete = kept
    left = [row for row in rows if row.pk not in papers]
    if not complete and not left:
        return None
    with search.by_key():
        keys = filterset.queryset.filter(pk__in=[*(row.pk for row in left), *papers])
        found = listed(filterset.filter_queryset(keys))
    if not complete:
        last = next((i for i, row in enumerate(found) if row.pk == left[-1].pk), None)
        if last is None:
            return None
        found = found[: last + 1]
        if len(found) < PER_PAGE:
            return None
    return found, complete


def rows_scopes(filterset: PublicationFilter) -> set[str]:
    """What a filter's page of rows follows (base/caches.py): which papers it holds, in
    which order, by which names (`listing`; an abstract or a link edited leaves it kept) and
    anyone's name or draft state; a search's follows every paper's words."""
    searched = bool(filterset.form.cleaned_data.get("q"))
    return {"publications"} if searched else {"listing", "people"}


def counts_scopes(filterset: PublicationFilter) -> set[str]:
    """What a filter's counts follow (base/caches.py): what counts are made from and anyone's
    name, so that a paper's title edited leaves them kept; a search's counts also follow
    every paper's words (its title, its authors' names)."""
    searched = bool(filterset.form.cleaned_data.get("q"))
    return {"publications" if searched else "facets", "people"}


@require_safe
def export(request, format):
    """The publications /publications/ lists with the same filters, as one file to download,
    however many match: streamed when they are more than one chunk (exports.export_pieces).

    Runs a fixed number of queries per chunk of EXPORT_CHUNK_ROWS papers, whatever the number
    of rows. A filter value the list would ignore (and say so) is refused here: a file cannot
    say it, and would hold the wrong papers. `?excel=1` gives the CSV as Excel reads it.
    """
    if format not in exports.FORMATS:
        raise Http404("No such export format.")
    filterset = FundedPublicationFilter(
        request.GET, queryset=Publication.objects.published().for_export()
    )
    if ignored := filterset.ignored_values():
        return plain_text("\n".join(ignored), status=400)
    pieces = exports.export_pieces(
        format,
        filterset.qs,
        base_url=request.build_absolute_uri("/").removesuffix("/"),
        chunk_size=EXPORT_CHUNK_ROWS,
    )
    if format == "csv" and request.GET.get("excel") == "1":
        pieces = exports.for_excel(pieces)
    return download_pieces(pieces, format=format, filename=f"publications.{format}")


# A root-relative address in an attribute: what embed() makes absolute.
SITE_PATH = re.compile(r'(\s(?:href|src)=")/(?!/)')


@require_safe
def embed(request):
    """/publications/embed/?author=...: the list's first page as an HTML fragment, for another
    site to include when it builds its pages (a department's page, a CMS block).

    The markup is the list's own (includes/publication_list.html, the site's class names);
    its links are made absolute, as the fragment is read on another site. A filter value the
    list would ignore is a 400, as for the exports.
    """
    filterset = FundedPublicationFilter(
        request.GET, queryset=Publication.objects.published().for_listing()
    )
    if ignored := filterset.ignored_values():
        return plain_text("\n".join(ignored), status=400)
    page = paginate(request, filterset.qs, per_page=PER_PAGE)
    page.object_list = listed(cast(PublicationQuerySet, page.object_list))
    html = render_to_string(
        "publications/embed.html",
        {"page": page, "filters_query": filters_query(filterset)},
        request=request,
    )
    site = request.build_absolute_uri("/")
    return HttpResponse(SITE_PATH.sub(rf"\1{site}", html), content_type="text/html; charset=utf-8")


@require_safe
def citation(request, slug):
    """One publication's BibTeX entry, the same as in its "Cite" block."""
    publication = get_object_or_404(
        Publication.objects.visible_to(request.user).for_listing(), slug=slug
    )
    return download(exports.bibtex([publication]), format="bib", filename=f"{slug}.bib")


def download(content: str, *, format: str, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type=exports.CONTENT_TYPES[format])
    response["Content-Disposition"] = cast(str, content_disposition_header(True, filename))
    return response


def download_pieces(
    pieces: Iterator[str], *, format: str, filename: str
) -> HttpResponse | StreamingHttpResponse:
    """A file written in pieces: sent whole when it is one piece (the page cache keeps it and
    it has a Content-Length), else streamed piece by piece as they are written."""
    first = list(islice(pieces, 2))
    if len(first) < 2:
        return download("".join(first), format=format, filename=filename)
    response = StreamingHttpResponse(
        chain(first, pieces), content_type=exports.CONTENT_TYPES[format]
    )
    response["Content-Disposition"] = cast(str, content_disposition_header(True, filename))
    return response


RELATED_PUBLICATIONS = 10
PUBLICATION_NEWS = 5


def publication(request, slug):
    """/publications/<slug>/: the publication, its members' other papers and its news.

    Its parts (publication_parts) are most of the page's cost and the same for every visitor
    until the next change, so they are kept per change stamp like a list's entries: a page
    rendered anew then costs the paper's row and what base.html shows. A draft, which only
    staff preview, is rendered every time and never kept. The row is read whole, with its
    venue, so that drawing the parts anew (after the paper's own edit) reads only its authors,
    awards and links besides."""
    paper = get_object_or_404(
        Publication.objects.visible_to(request.user).select_related("venue"), slug=slug
    )
    # The page's title in the reader's language, as its heading (base/translations.py).
    title = shown(paper, "title").text
    parts = (
        kept_publication_parts(request, paper)
        if paper.is_published
        else publication_parts(request, paper)
    )
    return render(request, "publications/publication_detail.html", {"title": title, "parts": parts})


# The parts of a paper's page, each a template in templates/publications/publication_detail/.
PUBLICATION_PARTS = ("description", "meta", "article")

# The scope every write of an event names (Event.cache_scopes): a paper's kept parts follow it,
# so a talk saved, linked to the paper or unlinked shows on the paper's next request.
TALKS_SCOPE = "events"


def publication_parts(
    request, paper: Publication, *, scopes: set[str] | None = None
) -> dict[str, SafeString]:
    """The parts of the page of `paper` (published or not), read with its venue: its authors,
    awards and links are read here. Rendered with a plain Context: they show nothing of the
    visitor, and the page's context processors are base.html's. What they follow is added to
    `scopes`."""
    pk = paper.pk
    prefetch_related_objects([paper], *listing_prefetches())
    exports.with_citations([paper])
    members = paper.published_members
    if scopes is not None:
        # The related papers (publications/related.py) follow the model, which the worker
        # builds anew after papers change; its talks follow every write of an event.
        scopes |= publication_page_scopes(pk, members) | {MODEL_SCOPE, TALKS_SCOPE}
    # What the page shows of other rows (its members' other papers, related papers, news,
    # datasets, talks, grants and projects: eight queries, the newest ten sorting every paper
    # of a prolific member): kept apart, through the paper's own edits, which change none of
    # them. Shared by the processes until the next change of any of them.
    around = cached(
        "publication-surroundings",
        (pk, sorted(member.pk for member in members)),
        lambda: surroundings(paper, members),
        scopes=publication_page_scopes(pk, members) | {MODEL_SCOPE, TALKS_SCOPE},
        apart_from=functools.partial(only_paper_written, pk),
        shows=lambda found: others_shown(**found),
    )
    if scopes is not None:
        scopes |= others_shown(**around)
    context = Context(
        {
            "publication": paper,
            "members": members,
            **around,
            # Only when staff turned them on (the lab row is base.html's, read once).
            "citations": paper_citations(pk) if current_lab(request).show_citation_counts else [],
            "request": request,
        }
    )
    return {
        # A template's output, escaped by it.
        name: mark_safe(
            get_template(f"publications/publication_detail/{name}.html")
            .template.render(context)  # type: ignore[attr-defined]
            .strip()
        )
        for name in PUBLICATION_PARTS
    }


def surroundings(paper: Publication, members: list) -> dict[str, list]:
    """What a paper's page shows of other rows: its members' newest other papers (`related`),
    the papers the related papers' model finds near it (`similar`), the news items naming
    it, its datasets and software, the talks that present it, the grants it acknowledges and
    the published projects it came of. Eight queries."""
    related = listed(
        Publication.objects.published()
        .authored_by(members)
        .exclude(pk=paper.pk)[:RELATED_PUBLICATIONS]
    )
    return {
        "related": related,
        # A paper is listed once on a page, and its entry's ids with it.
        "similar": papers_in_order(related_ids(paper.pk, apart={row.pk for row in related})),
        "news_items": list(NewsItem.objects.published().mentioning(paper)[:PUBLICATION_NEWS]),
        # Its datasets and software: the other direction of Output.publications.
        "outputs": list(Output.objects.published().related_to(paper).for_listing()),
        # The talks that present it, newest first: the other direction of
        # Event.publications. Dates only, never "upcoming": the part stays true with time.
        "talks": list(Event.objects.published().related_to(paper).for_listing()),
        # "Funded by" (the grants it acknowledges, also as its JSON-LD) and "Projects".
        **paper_funding(paper),
    }


def others_shown(
    *, related: list, similar: list, news_items: list, outputs: list, talks: list, **others: list
) -> set[str]:
    """The scopes of the other rows a paper's page shows, which its kept parts follow besides
    its own: each other paper listed (its entry, and the titles a news item's "About" line
    names: `paper:<pk>`, which its authors' renames name too) and each member named as an
    output's creator or a talk's speaker (`person:<pk>`). Grants, projects, groups, venues,
    news items and outsiders name no scope: their writes move everything."""
    papers = {row.pk for row in [*related, *similar]}
    papers |= {
        paper.pk for item in news_items for paper in getattr(item, "listed_publications", [])
    }
    people = {creator.researcher_id for output in outputs for creator in output.creators.all()}
    people |= {event.speaker_id for event in talks if event.speaker_id is not None}
    return {*(f"paper:{pk}" for pk in papers), *(f"person:{pk}" for pk in people)}


def papers_in_order(ids: list[int]) -> list:
    """The published papers of `ids` as list rows, in that order: one query, none for no ids.
    A paper deleted or hidden since the related papers' model was built is left out."""
    if not ids:
        return []
    found = {row.pk: row for row in listed(Publication.objects.published().filter(pk__in=ids))}
    return [found[pk] for pk in ids if pk in found]


def kept_publication_parts(request, paper: Publication) -> dict[str, SafeString]:
    """The parts of a published paper's page, kept until the next change in each process
    (site_cache.cached_each), per site address: its JSON-LD and COinS spans hold absolute
    links."""

    pk = paper.pk
    follows: set[str] = set()

    def render(ids: list[tuple[int, str]]) -> dict[tuple[int, str], str]:
        parts = publication_parts(request, paper, scopes=follows)
        return {(pk, name): parts[name] for _, name in ids}

    kept_parts = cached_each(
        "publication-page",
        parts=request.build_absolute_uri("/"),
        ids=[(pk, name) for name in PUBLICATION_PARTS],
        render=render,
        size_setting="SITE_CACHE_LOCAL_PAPER_PAGES",
        # Noted by render: the paper, its members' papers (the related ones) and the events (its
        # talks). A page also shows news and venues, which name no scopes: their writes move
        # every cache.
        scopes=lambda id: follows,
    )
    return {name: mark_safe(value) for (_, name), value in kept_parts.items()}


def publication_page_scopes(pk: int, members) -> set[str]:
    """What a paper's page follows (base/caches.py): the paper, and its members' other
    papers, from which its related papers are chosen."""
    return {f"paper:{pk}", *(f"papers-of:{member.pk}" for member in members)}


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def claims(request, slug):
    """/publications/<slug>/claims/: a signed-in member says which author row is them ("This
    is me") or is not ("Not me"), and sees how their claims were answered; anyone may send a
    correction. Both wait in the editors' queue (publications/claims/). Never kept: it shows
    the visitor's own claims and a form's token."""
    paper = get_object_or_404(Publication.objects.visible_to(request.user), slug=slug)
    member = person_of(request.user)
    address = get_client_ip_address(request) or ""
    correction = CorrectionForm(address=address)
    claim_form = ClaimForm(publication=paper)
    said, status = "", 200
    if request.method == "POST" and request.POST.get("action") == "correction":
        correction = CorrectionForm(request.POST, address=address)
        if not correction.is_valid():
            status = 429 if correction.has_error("__all__", "rate_limited") else 400
        else:
            if not correction.from_robot:
                send_correction(
                    publication=paper,
                    message=correction.cleaned_data["message"],
                    email=correction.cleaned_data["email"],
                )
            said = "Thank you: your correction waits for the lab's editors."
            correction = CorrectionForm(address=address)
    elif request.method == "POST":
        claim_form = ClaimForm(request.POST, publication=paper)
        if member is None:
            claim_form.add_error(
                None, "Sign in with your member login to say which author you are."
            )
            status = 403
        elif not claim_form.is_valid():
            status = 400
        else:
            try:
                claim = claim_author(
                    authorship=claim_form.cleaned_data["author"],
                    person=member,
                    kind=claim_form.cleaned_data["kind"],
                )
                said = f"Sent: “{claim.get_kind_display()}” on “{claim.authorship}” waits for an editor."
            except ClaimRefused as refused:
                claim_form.add_error(None, str(refused))
                status = 400
    authors = paper.authorships.select_related("researcher__profile").order_by("position")
    mine = (
        list(Claim.objects.filter(publication=paper, person=member).select_related("authorship"))
        if member is not None
        else []
    )
    waiting = {claim.authorship_id for claim in mine if claim.state == Claim.State.WAITING}
    context = {
        "publication": paper,
        "member": member,
        "authors": authors,
        "waiting": waiting,
        "my_claims": mine,
        "claim_form": claim_form,
        "correction": correction,
        "said": said,
    }
    return render(request, "publications/claims.html", context, status=status)
