"""The people app's models, one module per domain; every name is importable from here, as it was
from the single module they came from."""

from base.identifiers import validate_orcid  # noqa: F401  (named by migration 0010)
from people.models.cv import (
    Award,
    DatedEntry,
    Education,
    Experience,
    PeriodEntry,
    PersonLink,
    ProfileEntry,
    Service,
    Teaching,
)
from people.models.department import (
    Advising,
    Collaboration,
    Departure,
    Membership,
    MembershipQuerySet,
    ResearchGroup,
    ResearchGroupQuerySet,
    covers_year,
)
from people.models.identities import (
    MAX_ALIAS_LENGTH,
    MAX_ALIASES,
    ExternalPerson,
    ExternalPersonQuerySet,
    IdentityChange,
    KnownByNames,
    Researcher,
    _lines,
    member_or_outsider,
    validate_aliases,
)
from people.models.profile import (
    Person,
    PersonQuerySet,
    ResearchArea,
    RoleGroup,
    RoleGroupQuerySet,
)

__all__ = [
    "MAX_ALIASES",
    "MAX_ALIAS_LENGTH",
    "Advising",
    "Award",
    "Collaboration",
    "DatedEntry",
    "Departure",
    "Education",
    "Experience",
    "ExternalPerson",
    "ExternalPersonQuerySet",
    "IdentityChange",
    "KnownByNames",
    "Membership",
    "MembershipQuerySet",
    "PeriodEntry",
    "Person",
    "PersonLink",
    "PersonQuerySet",
    "ProfileEntry",
    "ResearchArea",
    "ResearchGroup",
    "ResearchGroupQuerySet",
    "Researcher",
    "RoleGroup",
    "RoleGroupQuerySet",
    "Service",
    "Teaching",
    "_lines",
    "covers_year",
    "member_or_outsider",
    "validate_aliases",
]
