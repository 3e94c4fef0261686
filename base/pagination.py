from typing import Any

from django.core.paginator import InvalidPage, Page, Paginator
from django.http import Http404, HttpRequest


def paginate(
    request: HttpRequest, queryset: Any, *, per_page: int, count: int | None = None
) -> Page[Any]:
    """The page the query string asks for; a page that does not exist is a 404. `count`, when
    known (cached), spares the COUNT query over every matching row."""
    paginator = Paginator(queryset, per_page)
    if count is not None:
        paginator.count = count
    try:
        return paginator.page(request.GET.get("page") or 1)
    except InvalidPage:
        raise Http404("There is no such page.") from None
