"""The list pages of outputs and projects: facets, a page of rows and the filters' notices,
drawn the same way."""

from django.http import HttpRequest

from base.pagination import paginate
from publications.filters import filters_query


def faceted_list(request: HttpRequest, filterset, *, facets, per_page: int, heading: str) -> dict:
    """What the outputs' and the projects' lists show (templates/faceted_list.html): a facet
    count per option under the other filters (`facets(filterset)`, one query per facet), a
    page of rows (two queries), whatever the number of rows; `heading` titles the page."""
    return {
        "heading": heading,
        "filterset": filterset,
        "facets": facets(filterset),
        "page": paginate(request, filterset.qs, per_page=per_page),
        "ignored": filterset.notices(),
        "filters_query": filters_query(filterset),
        "filtered": any(value for name, value in request.GET.items() if name != "page"),
    }
