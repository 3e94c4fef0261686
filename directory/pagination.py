from django.core.paginator import InvalidPage, Page, Paginator
from django.http import Http404


def paginate(request, queryset, *, per_page: int) -> Page:
    """The page the query string asks for; a page that does not exist is a 404."""
    paginator = Paginator(queryset, per_page)
    try:
        return paginator.page(request.GET.get("page") or 1)
    except InvalidPage:
        raise Http404("There is no such page.") from None
