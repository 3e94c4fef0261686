"""The suggested works in the admin: editors see everyone's, a member only their own, each
with "Add it" and "Not mine" buttons; and each member's last check, with what went wrong.
Registered by publications/admin.py."""

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from django.contrib import admin, messages
from django.contrib.admin.views.main import ChangeList
from django.core.exceptions import PermissionDenied
from django.db import models
from django.http import HttpRequest, HttpResponseRedirect
from django.shortcuts import redirect
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html

from base.roles import is_editor, person_of
from base.scoped_admin import ReadOnlyAdmin
from publications.suggestions.deciding import DecisionRefused, accept, reject
from publications.suggestions.models import Suggestion, WorkCheck

if TYPE_CHECKING:  # the stubs' name for what a list filter's choices yield
    from django.contrib.admin.filters import _ListFilterChoices


# accept or reject (deciding.py): a sentence saying what was done.
Decide = Callable[..., str]


class StateFilter(admin.SimpleListFilter):
    """Waiting ones unless staff ask for the others: a decided suggestion (or claim) needs
    nothing. A subclass names its model's `states` and which of them is `waiting`."""

    title = "decision"
    parameter_name = "state"
    ALL = "all"
    states: type[models.TextChoices] = Suggestion.State
    waiting: str = Suggestion.State.PENDING

    def lookups(
        self, request: HttpRequest, model_admin: admin.ModelAdmin[Any]
    ) -> list[tuple[Any, str]]:
        return [*self.states.choices, (self.ALL, "All")]

    def queryset(
        self, request: HttpRequest, queryset: models.QuerySet[Any]
    ) -> models.QuerySet[Any]:
        value = self.value() or self.waiting
        return queryset if value == self.ALL else queryset.filter(state=value)

    def choices(self, changelist: ChangeList) -> Iterator["_ListFilterChoices"]:
        current = self.value() or self.waiting
        for value, label in self.lookup_choices:
            yield {
                "selected": current == value,
                "query_string": changelist.get_query_string({self.parameter_name: value}),
                "display": label,
            }


class OwnRowsOnly(ReadOnlyAdmin):
    """Editors see every row; a member only the rows about them (`person`); nobody edits one
    by hand."""

    def get_queryset(self, request: HttpRequest) -> models.QuerySet[Any]:
        queryset = super().get_queryset(request)
        if is_editor(request.user):
            return queryset
        person = person_of(request.user)
        return queryset.filter(person=person) if person else queryset.none()

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        if is_editor(request.user):
            return True
        person = person_of(request.user)
        return person is not None and (obj is None or obj.person_id == person.pk)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return self.has_view_permission(request)


@admin.register(Suggestion)
class SuggestionAdmin(OwnRowsOnly):
    list_display = ["work", "person", "year", "venue", "source", "state", "decide"]
    list_filter = [StateFilter, "source"]
    list_select_related = ["person"]
    search_fields = ["title", "authors", "doi", "arxiv_id"]
    list_per_page = 50
    fields = [
        "person",
        "state",
        "title",
        "authors",
        "year",
        "venue",
        "doi",
        "arxiv_id",
        "source",
        "found_at",
        "decided_at",
        "decided_by",
        "publication",
    ]

    def get_list_display(self, request: HttpRequest) -> Any:
        shown = super().get_list_display(request)
        return shown if is_editor(request.user) else [n for n in shown if n != "person"]

    def get_list_filter(self, request: HttpRequest) -> Any:
        shown = list(super().get_list_filter(request))
        return (
            [*shown, ("person", admin.RelatedOnlyFieldListFilter)]
            if is_editor(request.user)
            else shown
        )

    @admin.display(description="work", ordering="title")
    def work(self, suggestion: Suggestion) -> str:
        return format_html("{}<br><small>{}</small>", suggestion.title, suggestion.authors)

    @admin.display(description="decide")
    def decide(self, suggestion: Suggestion) -> str:
        if suggestion.state != Suggestion.State.PENDING:
            if suggestion.publication_id:
                return format_html(
                    '<a href="{}">The paper</a>',
                    reverse(
                        "admin:publications_publication_change", args=[suggestion.publication_id]
                    ),
                )
            return ""
        # Buttons of the list's own form (it carries the CSRF token), sent to their own URL.
        return format_html(
            '<button type="submit" class="button" formaction="{}" formmethod="post" '
            'aria-label="Add “{}”">Add it</button> '
            '<button type="submit" class="button" formaction="{}" formmethod="post" '
            'aria-label="“{}” is not mine">Not mine</button>',
            reverse("admin:publications_suggestion_accept", args=[suggestion.pk]),
            suggestion.title,
            reverse("admin:publications_suggestion_reject", args=[suggestion.pk]),
            suggestion.title,
        )

    def get_urls(self) -> list[URLPattern]:
        def view(decision: Decide) -> Callable[..., Any]:
            def decide(request: HttpRequest, pk: int) -> HttpResponseRedirect:
                return self.decide_view(request, pk, decision)

            return self.admin_site.admin_view(decide)

        return [
            path("<int:pk>/accept/", view(accept), name="publications_suggestion_accept"),
            path("<int:pk>/reject/", view(reject), name="publications_suggestion_reject"),
            *super().get_urls(),
        ]

    def decide_view(self, request: HttpRequest, pk: int, decision: Decide) -> HttpResponseRedirect:
        if request.method != "POST" or not self.has_view_permission(request):
            raise PermissionDenied
        try:
            messages.success(request, decision(suggestion_id=pk, user=request.user))
        except DecisionRefused as refused:
            messages.error(request, str(refused))
        back = reverse("admin:publications_suggestion_changelist")
        filters = request.GET.get("_changelist_filters", "")
        return redirect(f"{back}?{filters}" if filters else back)


@admin.register(WorkCheck)
class WorkCheckAdmin(OwnRowsOnly):
    list_display = ["person", "state", "checked_at", "works_read", "suggested", "message"]
    list_filter = ["state"]
    list_select_related = ["person"]
    fields = ["person", "state", "queued_at", "checked_at", "works_read", "suggested", "message"]
