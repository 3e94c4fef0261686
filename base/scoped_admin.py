"""The admin as a member sees it: their own rows only (roles in base/roles.py)."""

from typing import Any

from django.conf import settings
from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse

from base.history import HistoryAdmin
from base.roles import is_editor, person_of

# How many of a kind's rows waiting for an editor the admin's index lists; a link finds the rest.
WAITING_LISTED = 20


class WaitingForEditorFilter(admin.SimpleListFilter):
    """Editors find every row members added that waits for them (a paper, a talk, a dataset);
    the index lists the first WAITING_LISTED and links here for the rest."""

    title = "review"
    parameter_name = "waiting"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("editor", "Waiting for an editor")] if is_editor(request.user) else []

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() == "editor":
            waiting = queryset.model._default_manager.waiting_for_editor()
            return queryset.filter(pk__in=waiting.values("pk"))
        return queryset


class MemberScopedAdmin(HistoryAdmin):
    """An admin that shows a member only the rows `member_queryset` allows.

    Another person's row is a 403 for a member (not the admin's usual redirect), so a
    guessed URL reveals nothing and is refused plainly. The object-level permission checks
    cover the history pages too, so a member cannot view or revert another's versions.
    """

    # What a member adds here waits, as a draft, until an editor publishes it, when the lab
    # wants that (settings.MEMBER_PAPERS_WAIT_FOR_EDITOR): one rule for members' papers, talks,
    # datasets and software. The row's name in the sentences ("paper", "talk"), and in the
    # plural; empty for rows that are not members' to publish.
    waiting_noun = ""
    waiting_nouns = ""

    def member_queryset(self, queryset: QuerySet[Any], person: Any) -> QuerySet[Any]:
        raise NotImplementedError

    def waits_for_editor(self, request: HttpRequest) -> bool:
        """Whether what this login adds or publishes here waits for an editor."""
        wait = bool(settings.MEMBER_PAPERS_WAIT_FOR_EDITOR)
        return bool(self.waiting_noun) and wait and not is_editor(request.user)

    def get_list_filter(self, request: HttpRequest) -> Any:
        filters = list(super().get_list_filter(request))
        if self.waiting_noun:
            filters.insert(0, WaitingForEditorFilter)
        return filters

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        readonly = list(super().get_readonly_fields(request, obj))
        if self.waits_for_editor(request):
            readonly.append("is_published")
        return readonly

    def save_model(self, request: HttpRequest, obj: Any, form: Any, change: bool) -> None:
        if not change and self.waits_for_editor(request):
            obj.is_published = False
            self.message_user(
                request,
                f"Your {self.waiting_noun} is saved as a draft: an editor publishes it on the "
                "site. You can preview it with “View on site”.",
            )
        super().save_model(request, obj, form, change)

    def waiting_for(self, request: HttpRequest) -> list[dict[str, Any]]:
        """For editors, on the admin's index: the rows members added that wait to be
        published, the first WAITING_LISTED and a link to the rest. Two queries at most."""
        if not self.waiting_noun or not is_editor(request.user):
            return []
        rows = self.model._default_manager.waiting_for_editor()
        opts = self.model._meta
        waiting: list[dict[str, Any]] = [
            {
                "title": str(row),
                "url": reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[row.pk]),
                "what": f"A {self.waiting_noun} to publish",
                "by": row.submitted_by,
            }
            for row in rows[:WAITING_LISTED]
        ]
        if len(waiting) == WAITING_LISTED and (unlisted := rows.count() - WAITING_LISTED):
            nouns = self.waiting_nouns if unlisted != 1 else self.waiting_noun
            waiting.append(
                {
                    "title": f"{unlisted} more {nouns} to publish",
                    "url": reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist")
                    + f"?{WaitingForEditorFilter.parameter_name}=editor",
                    "count": unlisted,
                }
            )
        return waiting

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        queryset: QuerySet[Any] = super().get_queryset(request)
        if is_editor(request.user):
            return queryset
        person = person_of(request.user)
        if person is None:
            return queryset.none()
        return self.member_queryset(queryset, person)

    def get_object(
        self, request: HttpRequest, object_id: str, from_field: str | None = None
    ) -> Any:
        field = (
            self.model._meta.pk if from_field is None else self.model._meta.get_field(from_field)
        )
        value = self.valid_id(object_id, field)
        try:
            return super().get_object(request, object_id, from_field)
        except Http404:
            if is_editor(request.user):
                raise
            if self.model._default_manager.filter(**{field.name: value}).exists():
                raise PermissionDenied from None
            raise

    def is_own(self, request: HttpRequest, obj: Any) -> bool:
        if obj is None or is_editor(request.user):
            return True
        person = person_of(request.user)
        rows = self.model._default_manager.filter(pk=obj.pk)
        return person is not None and self.member_queryset(rows, person).exists()

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(super().has_view_permission(request, obj)) and self.is_own(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(super().has_change_permission(request, obj)) and self.is_own(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_editor(request.user) and bool(super().has_delete_permission(request, obj))

    def history_form_view(
        self,
        request: HttpRequest,
        object_id: str,
        version_id: str,
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        """Members read their history but do not revert: a version would bring back the
        fields only editors set (the linked login, the group, the address)."""
        if not is_editor(request.user):
            raise PermissionDenied
        return super().history_form_view(request, object_id, version_id, extra_context)


class ReadOnlyAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """Rows nobody adds, edits or deletes by hand: what writes them is a service or a picker."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
