"""The two staff roles and what each may touch in the admin.

Editors edit everything. Members have a login linked to their Person: they edit their own
profile (with its CV entries and links) and the publications they author, and nothing else.
Superusers count as editors.
"""

from django.core.exceptions import PermissionDenied

from directory.history import HistoryAdmin
from people.models import Person

EDITORS = "Editors"
MEMBERS = "Members"


def is_editor(user) -> bool:
    """Cached on the user for the request: the admin asks many times per page."""
    if not hasattr(user, "_is_editor"):
        user._is_editor = user.is_active and (
            user.is_superuser or user.groups.filter(name=EDITORS).exists()
        )
    return user._is_editor


def member_person(user):
    """The Person a member's login is linked to, or None. One query, cached on the user."""
    if not hasattr(user, "_member_person"):
        user._member_person = Person.objects.filter(user_id=user.pk).first() if user.pk else None
    return user._member_person


class MemberScopedAdmin(HistoryAdmin):
    """An admin that shows a member only the rows `member_queryset` allows.

    Another person's row is a 403 for a member (not the admin's usual redirect), so a
    guessed URL reveals nothing and is refused plainly. The object-level permission checks
    cover the history pages too, so a member cannot view or revert another's versions.
    """

    def member_queryset(self, queryset, person):
        raise NotImplementedError

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        if is_editor(request.user):
            return queryset
        person = member_person(request.user)
        if person is None:
            return queryset.none()
        return self.member_queryset(queryset, person)

    def get_object(self, request, object_id, from_field=None):
        found = super().get_object(request, object_id, from_field)
        if found is None and not is_editor(request.user):
            field = (
                self.model._meta.pk
                if from_field is None
                else self.model._meta.get_field(from_field)
            )
            try:
                exists = self.model._default_manager.filter(**{field.name: object_id}).exists()
            except (ValueError, TypeError):
                exists = False
            if exists:
                raise PermissionDenied
        return found

    def is_own(self, request, obj) -> bool:
        if obj is None or is_editor(request.user):
            return True
        person = member_person(request.user)
        rows = self.model._default_manager.filter(pk=obj.pk)
        return person is not None and self.member_queryset(rows, person).exists()

    def has_view_permission(self, request, obj=None):
        return super().has_view_permission(request, obj) and self.is_own(request, obj)

    def has_change_permission(self, request, obj=None):
        return super().has_change_permission(request, obj) and self.is_own(request, obj)

    def has_delete_permission(self, request, obj=None):
        return is_editor(request.user) and super().has_delete_permission(request, obj)
