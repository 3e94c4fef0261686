from oauth2_provider.oauth2_validators import OAuth2Validator


class InstitutionValidator(OAuth2Validator):
    """The claims an institution's identity provider sends: name, email address, and the
    groups the person is in (their Django groups here), plus an ORCID iD for some."""

    oidc_claim_scope = None  # every claim, whatever the scopes asked

    def get_additional_claims(self, request):
        user = request.user
        claims = {
            "preferred_username": user.username,
            "name": user.get_full_name() or user.username,
            "email": user.email,
            "email_verified": True,
            "groups": sorted(user.groups.values_list("name", flat=True)),
        }
        if user.last_name.startswith("0000-"):  # the ORCID iD, kept in last_name here
            claims["orcid"] = f"https://orcid.org/{user.last_name}"
        return claims
