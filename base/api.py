"""What every app's part of the read-only JSON API (/api/) shares: pages of results, errors, and
query parameters read off the app's FilterSet.

The API filters with the very FilterSets the HTML lists use, so `/api/publications/?venue=NSDI`
and `/publications/?venue=NSDI` cannot disagree. Its query parameters are declared from those
FilterSets too (`filter_parameters`). A filter's fixed choices (a type) are the schema's enum;
one whose choices come from the database (the venues, the members) is a string with a few of
today's values as examples (`with_choices`): the schema does not freeze today's rows.
"""

import copy
import datetime
import inspect
from collections.abc import Callable, Iterable
from typing import Annotated, Any, Generic, TypeVar

import django_filters
from django import forms
from django.core.paginator import InvalidPage, Paginator
from django.core.validators import ProhibitNullCharactersValidator
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.http import urlencode
from ninja import Field, Query, Router, Schema
from ninja.errors import HttpError
from pydantic import create_model

from base.site_cache import true_until

Item = TypeVar("Item")


class ErrorOut(Schema):
    """Every error the API answers: a sentence, and one line per value it refused."""

    detail: str
    errors: list[str] = []


ERRORS: dict[int, type[Schema]] = {400: ErrorOut, 404: ErrorOut}


class WebLinkOut(Schema):
    kind: str
    label: str = Field(description="As the page shows it: the label, or the kind's name.")
    url: str


def links_data(links: Iterable[Any]) -> list[dict[str, str]]:
    """WebLink rows (base/models.py) as WebLinkOut."""
    return [{"kind": link.kind, "label": str(link), "url": link.url} for link in links]


class NamedPageOut(Schema):
    """Another row with a page of its own, named as its page names it."""

    slug: str
    name: str
    url: str = Field(description="Its page.")


def page_link(obj: Any, name: str, request: HttpRequest) -> dict[str, str]:
    """A row with a page (a PublicPage) as NamedPageOut."""
    return {
        "slug": obj.slug,
        "name": name,
        "url": request.build_absolute_uri(obj.get_absolute_url()),
    }


def titled_page(obj: Any, request: HttpRequest) -> dict[str, str]:
    """What the data of a row with a title and a page of its own begins with (a news item, an
    event, an output, a project, a paper): its slug, its title and its page's address."""
    return {
        "slug": obj.slug,
        "title": obj.title,
        "url": request.build_absolute_uri(obj.get_absolute_url()),
    }


def credit_out(row: Any, request: HttpRequest) -> dict[str, Any]:
    """A credit row (base/ordered_admin.py: an output's creator, a project's person): its
    researcher's name and ORCID iD, and the profile's address when a member with a published
    one. Reads the researcher and profile the list's for_listing() selected."""
    member = row.member
    return {
        "name": row.researcher.name,
        "orcid": row.researcher.orcid,
        "profile": None
        if member is None
        else request.build_absolute_uri(member.get_absolute_url()),
    }


def api_list(name: str, request: HttpRequest, **filters: str) -> str:
    """The address of one of the API's lists (the URL name `name`, "api:list_news") narrowed
    by `filters`, as an object links the list of its papers or news."""
    return request.build_absolute_uri(reverse(name) + "?" + urlencode(filters))


class PageOut(Schema, Generic[Item]):
    count: int = Field(description="How many results there are in all pages.")
    page: int = Field(description="This page's number, from 1.")
    pages: int = Field(description="How many pages there are.")
    next: str | None = Field(description="The next page's address, with the same filters.")
    previous: str | None = Field(description="The previous page's address.")
    results: list[Item]


class PageQuery(Schema):
    page: int = Field(1, ge=1, description="The page of results, from 1.")


def page_of(
    request: HttpRequest,
    queryset: QuerySet[Any],
    *,
    per_page: int,
    row: Callable[[Any, HttpRequest], dict[str, Any]],
) -> dict[str, Any]:
    """The page the query string asks for, as PageOut's fields, each row made by `row`.

    Pages are as stable as the queryset's order: it must order by something unique last.
    Two queries (the count and the page's rows), plus the rows' prefetches.
    """
    paginator = Paginator(queryset, per_page)
    try:
        page = paginator.page(request.GET.get("page") or 1)
    except InvalidPage:
        raise HttpError(404, "There is no such page.") from None

    def address(number: int) -> str:
        query = request.GET.copy()
        query["page"] = str(number)
        return request.build_absolute_uri(f"{request.path}?{query.urlencode()}")

    return {
        "count": paginator.count,
        "page": page.number,
        "pages": paginator.num_pages,
        "next": address(page.next_page_number()) if page.has_next() else None,
        "previous": address(page.previous_page_number()) if page.has_previous() else None,
        "results": [row(item, request) for item in page.object_list],
    }


def filtered_page(
    request: HttpRequest,
    filterset: Any,
    *,
    per_page: int,
    row: Callable[[Any, HttpRequest], dict[str, Any]],
) -> dict[str, Any]:
    """A list narrowed by the FilterSet of its HTML page, as page_of gives it."""
    refuse_ignored_values(filterset)
    return page_of(request, filterset.qs, per_page=per_page, row=row)


def refuse_ignored_values(filterset: Any) -> None:
    """A value the HTML list would ignore (and say so) is refused: a client reading JSON would
    otherwise get every row and think the filter held."""
    if ignored := filterset.ignored_values():
        raise HttpError(400, " ".join(ignored))


# The FilterSet behind each list operation, by operationId: the schema's choices come from it.
LIST_FILTERS: dict[str, type[django_filters.FilterSet]] = {}


def filter_parameters(
    filterset_class: type[django_filters.FilterSet], *, operation_id: str
) -> type[Schema]:
    """The query parameters of a list: `page` and one per filter of `filterset_class`.

    Types and bounds come from each filter's form field (a year is a whole number in the
    site's range, a search has a maximum length); repeatable filters are arrays.
    """
    LIST_FILTERS[operation_id] = filterset_class
    fields: dict[str, Any] = {
        "page": (int, Field(1, ge=1, description="The page of results, from 1.")),
    }
    for name, filter_ in filterset_class.base_filters.items():
        # A copy: a filter keeps the first field it builds, and the FilterSet's own copies
        # must still build theirs with the choices each one is given.
        field = copy.deepcopy(filter_).field
        fields[name] = parameter(field, description=str(filter_.label or name))
    model_name = "".join(part.title() for part in operation_id.split("_")) + "Query"
    return create_model(model_name, __base__=Schema, **fields)


def add_filtered_list(
    router: Router,
    path: str,
    *,
    operation_id: str,
    summary: str,
    description: str,
    filterset_class: type[django_filters.FilterSet],
    rows: Callable[[], QuerySet[Any]],
    row: Callable[[Any, HttpRequest], dict[str, Any]],
    page: type[Schema],
    per_page: int,
    changes_at: Callable[[Any], datetime.datetime | None] | None = None,
) -> None:
    """Add to `router` the list operation at `path` an app's HTML list has beside it: its query
    parameters are `filterset_class`'s (filter_parameters), its rows `rows()` narrowed by that
    FilterSet as the page narrows them, `per_page` at a time, each made by `row`; a value the
    page would ignore is refused (filtered_page). `description` is what the API's docs say of
    it. `changes_at`, for a list that changes with time (upcoming events): when the narrowed
    rows stop being true, so the page cache keeps the answer no longer (true_until).

    The apps' lists of news, events, outputs and people are this one operation with their own
    models; the URL name is `operation_id` ("api:list_news"), as a view of that name gave it.
    """
    parameters = filter_parameters(filterset_class, operation_id=operation_id)

    def list_rows(
        request: HttpRequest,
        response: HttpResponse,
        filters: Query[parameters],  # type: ignore[valid-type]
    ) -> dict[str, Any]:
        filterset = filterset_class(request.GET, queryset=rows())
        found = filtered_page(request, filterset, per_page=per_page, row=row)
        if changes_at is not None:
            true_until(response, changes_at(filterset.qs))
        return found

    router.get(
        path,
        response={200: page, **ERRORS},
        operation_id=operation_id,
        url_name=operation_id,
        summary=summary,
        description=description,
    )(list_rows)


Rows = TypeVar("Rows", bound=Callable[[], QuerySet[Any]])


def add_paged_list(
    router: Router,
    path: str,
    page: type[Schema],
    *,
    summary: str,
    row: Callable[[Any, HttpRequest], dict[str, Any]],
    per_page: int,
) -> Callable[[Rows], Rows]:
    """Decorate the function that gives a list's rows, in their order, for the list operation
    at `path` that has no filters, only pages (`page` its schema, `per_page` rows each made by
    `row`). The function's name is the operation's id and URL name ("api:list_groups"), its
    docstring (the order) the operation's description. The research groups, the areas and the
    venues are this one operation.
    """

    def register(rows: Rows) -> Rows:
        def list_rows(request: HttpRequest, query: Query[PageQuery]) -> dict[str, Any]:
            return page_of(request, rows(), per_page=per_page, row=row)

        router.get(
            path,
            response={200: page, **ERRORS},
            operation_id=rows.__name__,
            url_name=rows.__name__,
            summary=summary,
            description=inspect.getdoc(rows),
        )(list_rows)
        return rows

    return register


Detail = TypeVar("Detail", bound=Callable[[Any, HttpRequest], dict[str, Any]])


def add_detail(
    router: Router,
    path: str,
    out: type[Schema],
    rows: Callable[[], QuerySet[Any]],
    *,
    changes_at: Callable[[Any], datetime.datetime | None] | None = None,
) -> Callable[[Detail], Detail]:
    """Decorate the function that makes one row's data (`out` its schema) from the row and the
    request: it answers `path` ("/news/{slug}/") with the row of `rows()` with that slug, or 404
    (ErrorOut). The function's name is the operation's id and URL name ("api:get_news"), its
    docstring the operation's summary. `changes_at`, for a row that changes with time (an
    event until it is over): when it stops being true (true_until).

    The API's news item, event, output, project, paper, person, group and area are each this
    one operation with their own rows (a function: a queryset made at import would keep the
    day it was made in a "current members" condition).
    """

    def register(detail: Detail) -> Detail:
        def get_row(request: HttpRequest, response: HttpResponse, slug: str) -> dict[str, Any]:
            row = get_object_or_404(rows(), slug=slug)
            if changes_at is not None:
                true_until(response, changes_at(row))
            return detail(row, request)

        router.get(
            path,
            response={200: out, **ERRORS},
            operation_id=detail.__name__,
            url_name=detail.__name__,
            summary=inspect.getdoc(detail),
        )(get_row)
        return detail

    return register


NO_NULL_CHARACTER = r"^[^\x00]*$"


def parameter(field: forms.Field, *, description: str) -> tuple[Any, Any]:
    bounds = {
        key: value
        for key, value in [
            ("ge", getattr(field, "min_value", None)),
            ("le", getattr(field, "max_value", None)),
            ("max_length", getattr(field, "max_length", None)),
        ]
        if value is not None
    }
    is_number = isinstance(field, forms.IntegerField) or "ge" in bounds
    if not is_number and any(
        isinstance(validator, ProhibitNullCharactersValidator) for validator in field.validators
    ):
        # Django's text fields refuse a null character: the schema says so, so that a client
        # (and the fuzzer) knows "q=%00" is refused, as it is.
        bounds["pattern"] = NO_NULL_CHARACTER
    item: Any = Annotated[int if is_number else str, Field(**bounds)]
    if isinstance(field, forms.MultipleChoiceField) or isinstance(
        field.widget, forms.MultipleHiddenInput
    ):
        return list[item], Field([], description=f"{description} (repeat it for several).")
    # Not "| None": a query parameter is left out, never null.
    return item, Field(None, description=description)


def with_choices(schema: dict[str, Any]) -> dict[str, Any]:
    """The OpenAPI `schema` with each list parameter that takes a choice restricted to it when
    the choices are fixed in the code (a publication type, "any"/"all"), and given a few of
    today's values as examples when they come from the database (a venue, a member, a group):
    an enum of those would be out of date at the next paper, and a client generated from the
    schema would refuse a venue added after it was built. A few small queries."""
    for path in schema.get("paths", {}).values():
        for operation in path.values():
            filterset_class = LIST_FILTERS.get(operation.get("operationId", ""))
            if filterset_class is None:
                continue
            model = filterset_class._meta.model
            filters = filterset_class(queryset=model._default_manager.none()).filters
            for parameter_schema in operation.get("parameters", []):
                name = parameter_schema["name"]
                filter_ = filters.get(name)
                choices = filter_.extra.get("choices") if filter_ is not None else None
                if choices is None:
                    continue
                fixed = isinstance(filterset_class.base_filters[name].extra.get("choices"), list)
                if callable(choices):  # read when asked, as the department's groups and areas
                    choices = choices()
                values = [str(value) for value, _label in choices]
                target = parameter_schema["schema"]
                if "items" in target:
                    target = target["items"]
                if not fixed:
                    if values:
                        target["examples"] = values[:EXAMPLES]
                    continue
                if target is parameter_schema["schema"] and not filter_.extra.get("required"):
                    # A one-value filter left empty is "any", as the page's "Everyone" sends.
                    values = ["", *values]
                target.pop("maxLength", None)
                target["enum"] = values
    return schema


# Values of a database-drawn filter the schema shows as examples.
EXAMPLES = 3
