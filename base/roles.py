"""The two staff roles, as Django permissions. What each may touch in the admin:
base/scoped_admin.py.

Editors hold the permission `directory.edit_all` (the Editors group grants it; superusers hold
every permission): they edit everything. Members have a login linked to their Person (the
`person` relation of the user): they edit their own profile (with its CV entries and links) and
the publications they author, and nothing else.
"""

from typing import Any

from django.contrib.auth.models import AbstractUser, AnonymousUser

EDIT_ALL_CODENAME = "edit_all"
# The group that grants members their permissions; linking a login to a person puts it there.
MEMBER_LOGINS_GROUP = "Member logins"
EDIT_ALL = f"directory.{EDIT_ALL_CODENAME}"


def is_editor(user: AbstractUser | AnonymousUser) -> bool:
    """Django's permission backend caches what a user holds, so asking again costs no query."""
    return bool(user.is_active and user.has_perm(EDIT_ALL))


def person_of(user: AbstractUser | AnonymousUser) -> Any:
    """The Person this login is linked to, or None (anonymous visitors, editors without one).

    The reverse one-to-one relation caches its answer on the user, "none" included, so the
    admin may ask many times per page for one query.
    """
    return getattr(user, "person", None)
