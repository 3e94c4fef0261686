"""/outputs/: the lab's datasets and software, a page each, their exports and feed."""

import json

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext

from base.site_cache import cached
from base.structured_data import json_ld_script
from outputs import exports
from outputs.filters import OutputFilter, facets
from outputs.models import Output
from outputs.structured_data import output_json_ld
from pages.views.faceted import faceted_list
from pages.views.publications import download
from projects.structured_data import codemeta_funding
from publications.feeds import plain_text

PER_PAGE = 25
# How many of a person's, group's or area's outputs their page lists; the rest are a link away.
SECTION_OUTPUTS = 10

CONTENT_TYPES = {
    "cff": "application/x-yaml; charset=utf-8",
    "codemeta": "application/ld+json; charset=utf-8",
}


def listed_outputs(queryset):
    """The first outputs of `queryset`, ready to list: two queries whatever their number (one
    when there are none)."""
    return list(queryset.published().for_listing()[:SECTION_OUTPUTS])


def section_outputs(owner: tuple[str, int], queryset) -> list[Output]:
    """A profile's, group's or area's first outputs (`owner`: ("person", pk)...), kept until
    an output or a person changes (an output's write moves every kept value), so a page
    rendered anew pays no query for a section most pages leave out."""
    return cached("section-outputs", owner, lambda: listed_outputs(queryset), scopes={"people"})


def index(request):
    filterset = OutputFilter(request.GET, queryset=Output.objects.published().for_listing())
    context = faceted_list(
        request,
        filterset,
        facets=facets,
        per_page=PER_PAGE,
        heading=gettext("Datasets and software"),
    )
    return render(request, "outputs/output_list.html", context)


def detail(request, slug):
    output = get_object_or_404(Output.objects.visible_to(request.user).for_page(), slug=slug)
    base_url = base_url_of(request)
    return render(
        request,
        "outputs/output_detail.html",
        {
            "output": output,
            "json_ld": json_ld_script(output_json_ld(output, request=request)),
            "bibtex": exports.bibtex_entry(output),
            "csl": exports.csl_json([output], base_url=base_url),
        },
    )


def base_url_of(request) -> str:
    return request.build_absolute_uri("/").removesuffix("/")


def one(request, slug) -> Output:
    return get_object_or_404(Output.objects.visible_to(request.user).for_listing(), slug=slug)


def citation(request, slug):
    """The output's biblatex entry, as its page shows it."""
    return download(exports.bibtex_entry(one(request, slug)), format="bib", filename=f"{slug}.bib")


def csl(request, slug):
    output = one(request, slug)
    text = exports.csl_json([output], base_url=base_url_of(request))
    return download(text, format="json", filename=f"{slug}.json")


def citation_cff(request, slug):
    """Software's CITATION.cff; a dataset has none (its page offers the other formats)."""
    output = one(request, slug)
    if not output.is_software:
        raise Http404("Only software has a CITATION.cff here.")
    return software_file(exports.citation_cff(output, base_url=base_url_of(request)), "cff")


def codemeta(request, slug):
    output = one(request, slug)
    if not output.is_software:
        raise Http404("Only software has CodeMeta here.")
    data = exports.codemeta(output, base_url=base_url_of(request))
    # The grants of the projects it came of (projects sit above outputs: added here).
    data.update(codemeta_funding(output))
    return software_file(json.dumps(data, ensure_ascii=False, indent=2) + "\n", "codemeta")


def software_file(text: str, format: str) -> HttpResponse:
    """Shown in the browser, as a repository shows these files, not downloaded."""
    return HttpResponse(text, content_type=CONTENT_TYPES[format])


def export(request, format):
    """The outputs /outputs/ lists, with the same filters, as one file. A value the list would
    ignore is refused: the file cannot say so, and would hold the wrong outputs."""
    filterset = OutputFilter(request.GET, queryset=Output.objects.published().for_listing())
    if ignored := filterset.ignored_values():
        return plain_text("\n".join(ignored), status=400)
    if format == "bib":
        return download(exports.bibtex(filterset.qs), format="bib", filename="outputs.bib")
    text = exports.csl_json(filterset.qs, base_url=base_url_of(request))
    return download(text, format="json", filename="outputs.json")
