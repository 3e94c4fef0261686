"""Which role an institution's answer gives: a pure function of its claims (OpenID Connect) or
attributes (SAML) and the mapping the environment sets (config/settings.py, SIGNIN_...).

Editors win when both lists match; nothing matching gives no role. No answer ever makes a
superuser: that stays a decision taken on the site itself.
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum

from django.conf import settings


class Role(Enum):
    EDITOR = "editor"
    MEMBER = "member"


@dataclass(frozen=True)
class RoleMapping:
    groups_claim: str
    editor_groups: frozenset[str]
    member_groups: frozenset[str]

    @classmethod
    def from_settings(cls) -> "RoleMapping":
        return cls(
            groups_claim=settings.SIGNIN_GROUPS_CLAIM,
            editor_groups=frozenset(settings.SIGNIN_EDITOR_GROUPS),
            member_groups=frozenset(settings.SIGNIN_MEMBER_GROUPS),
        )


def claim_values(claims: Mapping[str, object], name: str) -> set[str]:
    """A claim's values as a set of strings: OpenID Connect sends a list or one string, SAML a
    list of strings for every attribute."""
    value = claims.get(name)
    if value is None:
        return set()
    if isinstance(value, str):
        return {value}
    if isinstance(value, Iterable):
        return {str(item) for item in value}
    return {str(value)}


def role_for(claims: Mapping[str, object], mapping: RoleMapping) -> Role | None:
    groups = claim_values(claims, mapping.groups_claim)
    if groups & mapping.editor_groups:
        return Role.EDITOR
    if groups & mapping.member_groups:
        return Role.MEMBER
    return None
