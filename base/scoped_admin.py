"""The admin as a member sees it: their own rows only (roles in base/roles.py)."""

from typing import Any

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse

from base.history import HistoryAdmin
from base.roles import is_editor, person_of


class MemberScopedAdmin(HistoryAdmin):
    """An admin that shows a member only the rows `member_queryset` allows.

    Another person's row is a 403 for a member (not the admin's usual redirect), so a
    guessed URL reveals nothing and is refused plainly. The object-level permission checks
    cover the history pages too, so a member cannot view or revert another's versions.
    """

    def member_queryset(self, queryset: QuerySet[Any], person: Any) -> QuerySet[Any]:
        raise NotImplementedError

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
