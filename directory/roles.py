"""The two staff roles. What each may touch in the admin: directory/scoped_admin.py.

Editors edit everything. Members have a login linked to their Person: they edit their own
profile (with its CV entries and links) and the publications they author, and nothing else.
Superusers count as editors.
"""

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
        from people.models import Person  # people.models uses this module for drafts

        user._member_person = Person.objects.filter(user_id=user.pk).first() if user.pk else None
    return user._member_person
