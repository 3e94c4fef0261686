"""What a sign-in through the institution gives: the role its answer maps to (signin/roles.py),
on every sign-in, so a person who leaves a group at the institution loses the role here at
their next sign-in; and, for a member, the link to their profile when exactly one profile is
theirs.
"""

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.models import Group
from django.db import transaction
from django.http import HttpRequest

from base.identifiers import normalize_orcid
from base.roles import EDIT_ALL_CODENAME, MEMBER_LOGINS_GROUP
from people.models import Person
from people.services import let_login_edit_profile, save_with_history
from signin.roles import Role, RoleMapping, claim_values, role_for


def claims_of(extra_data: Mapping[str, Any]) -> dict[str, Any]:
    """One mapping of what the identity provider said: OpenID Connect's userinfo answer
    overlaid with its ID token (allauth keeps both), so that a claim the signed, checked ID
    token carries (the groups that decide the role, the email address that links a profile)
    is never replaced by the unsigned userinfo's; or SAML's attributes as they are."""
    if "id_token" in extra_data or "userinfo" in extra_data:
        return {**(extra_data.get("userinfo") or {}), **(extra_data.get("id_token") or {})}
    return dict(extra_data)


def editors_group() -> Group:
    """The group granting the editor's permission (base/roles.py), found by the permission
    rather than by its name."""
    group = Group.objects.filter(
        permissions__codename=EDIT_ALL_CODENAME, permissions__content_type__app_label="directory"
    ).first()
    if group is None:
        raise Group.DoesNotExist("No group grants the editor's permission.")
    return group


def profiles_named_by(claims: Mapping[str, Any]) -> list[Person]:
    """The profiles whose email address or ORCID iD the identity provider names. An email
    address the provider says it has not verified names nobody."""
    people: dict[int, Person] = {}
    email = claims.get("email")
    if isinstance(email, list):
        email = email[0] if len(email) == 1 else None
    if isinstance(email, str) and email.strip() and claims.get("email_verified") is not False:
        for person in Person.objects.filter(email__iexact=email.strip()):
            people[person.pk] = person
    for value in claim_values(claims, settings.SIGNIN_ORCID_CLAIM):
        orcid = normalize_orcid(value)
        if orcid:
            for person in Person.objects.filter(orcid=orcid):
                people[person.pk] = person
    return list(people.values())


def _take_away(user: Any, groups: list[Group]) -> None:
    user.groups.remove(*groups)
    if user.is_staff:
        user.is_staff = False
        user.save(update_fields=["is_staff"])


@transaction.atomic
def give_roles(*, user: Any, claims: Mapping[str, Any], mapping: RoleMapping) -> str | None:
    """Give `user` the role `claims` map to and take away the others. Returns a sentence for
    the person signing in when they get less than they might expect, else None."""
    if user.is_superuser:
        # A superuser who connected their login to the institution keeps what the site gave
        # them: the institution's groups neither make nor unmake one.
        return None
    editors = editors_group()
    members = Group.objects.get(name=MEMBER_LOGINS_GROUP)
    institution = settings.SIGNIN_INSTITUTION_NAME
    role = role_for(claims, mapping)
    if role is Role.EDITOR:
        user.groups.remove(members)
        user.groups.add(editors)
        if not user.is_staff:
            user.is_staff = True
            user.save(update_fields=["is_staff"])
        return None
    if role is None:
        _take_away(user, [editors, members])
        return (
            f"You are signed in with {institution}, but {institution} does not list you in a "
            "group that may edit this site, so you have no rights here. Ask an editor if you "
            "should have."
        )
    user.groups.remove(editors)
    people = profiles_named_by(claims)
    person = people[0] if len(people) == 1 else None
    if person is not None and person.user_id not in (None, user.pk):
        person = None
    if person is None:
        _take_away(user, [editors, members])
        return (
            f"You are signed in with {institution} as a lab member, but no single profile on "
            "this site has your email address or ORCID iD without another login, so you "
            "cannot edit a profile yet. Ask an editor to link your login to your profile."
        )
    if person.user_id != user.pk:
        person.user = user
        save_with_history(person, reason=f"Login linked at a sign-in with {institution}", user=user)
    let_login_edit_profile(user=user)
    return None


def give_roles_on_sign_in(
    sender: object,
    *,
    request: HttpRequest,
    user: Any,
    sociallogin: Any = None,
    **kwargs: Any,
) -> None:
    """allauth's user_logged_in signal: only sign-ins through an identity provider."""
    if sociallogin is None:
        return
    claims = claims_of(sociallogin.account.extra_data)
    # SAML names the email address by an attribute of its own (config/settings.py maps it);
    # allauth has read it into the login.
    if "email" not in claims and user.email:
        claims["email"] = user.email
    sentence = give_roles(user=user, claims=claims, mapping=RoleMapping.from_settings())
    if sentence:
        messages.warning(request, sentence)
