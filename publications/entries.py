"""The entries of publication lists, rendered once per change and shared by every list.

An entry (templates/includes/publication_entry.html) is most of a list page's cost: its
authors, badges, links, abstract, COinS span and "Cite" block with the paper's BibTeX take
about 2 ms each to load and render, so 50 of them cost 100 ms where the rest of /publications/
costs 20. An entry depends only on its paper, the rows it shows (venue, authors and whether each
is a published member, awards, links) and the site's address, so it is kept per paper until the
next change of that paper (base.site_cache.cached_each) and a page rendered anew (another filter, another
page number) renders only the papers no list has shown since.

A list hands its papers over as `Listed` rows (its ids and years: one query that loads no
related row) or as Publication objects it already loaded for another reason.
"""

from collections.abc import Iterable
from typing import NamedTuple

from django.http import HttpRequest
from django.template import Context
from django.template.loader import get_template

from base.site_cache import cached_each
from publications import exports
from publications.models import Publication, PublicationQuerySet

ENTRY_TEMPLATE = "includes/publication_entry.html"


class Listed(NamedTuple):
    """A paper of a list before its entry is rendered: its key, its year for the list's year
    headings, and its names. The columns of the list-order index: read from the index alone."""

    pk: int
    year: int | None
    title: str
    slug: str


def listed(publications: PublicationQuerySet) -> list[Listed]:
    """The papers of `publications` (filtered, ordered, sliced) as `Listed` rows: one query."""
    rows = publications.prefetch_related(None).values_list(*Listed._fields)
    return [Listed(*row) for row in rows]


def rendered_entries(
    request: HttpRequest, publications: Iterable[Publication | Listed], *, cite: bool = True
) -> dict[int, str]:
    """Each paper's entry as HTML by pk, in the order given, the kept ones not rendered again;
    with its "Cite" block unless `cite` is false (an embed, the site search). A paper deleted
    since it was listed is left out."""
    publications = list(publications)
    loaded = {p.pk: p for p in publications if isinstance(p, Publication)}

    def render(ids: list[int]) -> dict[int, str]:
        papers = Publication.objects.for_listing().reusing(loaded, ids)
        if cite:
            exports.with_citations(papers)
        template = get_template(ENTRY_TEMPLATE).template  # type: ignore[attr-defined]
        # A plain Context: the page's context processors already ran, an entry needs none.
        return {
            paper.pk: template.render(Context({"publication": paper, "request": request}))
            for paper in papers
        }

    # The COinS span holds the paper's full address, which depends on the host asked.
    site = request.build_absolute_uri("/")
    return cached_each(
        "publication-entry",
        parts=(site, cite),
        ids=[p.pk for p in publications],
        render=render,
        scopes=lambda pk: {f"paper:{pk}"},
    )
