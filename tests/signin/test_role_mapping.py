"""The role mapping on its own (signin/roles.py, signin/services.py), without a provider."""

import pytest
from django.contrib.auth import get_user_model

from base.roles import EDIT_ALL
from signin.roles import Role, RoleMapping, role_for
from signin.services import give_roles

MAPPING = RoleMapping(
    groups_claim="groups",
    editor_groups=frozenset({"lab-editors"}),
    member_groups=frozenset({"lab-members"}),
)


@pytest.mark.parametrize(
    ("claims", "role"),
    [
        ({"groups": ["lab-members", "lab-editors"]}, Role.EDITOR),
        ({"groups": "lab-members"}, Role.MEMBER),
        ({"groups": ["LAB-EDITORS", "staff"]}, None),
        ({}, None),
    ],
)
def test_editors_win_and_only_listed_values_give_a_role(claims, role):
    assert role_for(claims, MAPPING) is role


@pytest.mark.django_db
def test_a_superuser_who_signs_in_with_the_institution_keeps_their_rights():
    root = get_user_model().objects.create_superuser("root", "root@example.org")
    assert give_roles(user=root, claims={"groups": ["library-staff"]}, mapping=MAPPING) is None
    root.refresh_from_db()
    assert root.is_staff and root.is_superuser and root.has_perm(EDIT_ALL)
