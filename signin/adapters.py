"""django-allauth told how this site signs people in: only through the institution's identity
provider (the password login is the admin's own), and a refused answer as a page with a status
that says so."""

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from allauth.core.exceptions import ImmediateHttpResponse
from allauth.socialaccount.adapter import DefaultSocialAccountAdapter
from django.conf import settings
from django.contrib import admin
from django.http import HttpRequest
from django.template.response import TemplateResponse


class AccountAdapter(DefaultAccountAdapter):
    def is_open_for_signup(self, request: HttpRequest) -> bool:
        """Nobody makes themselves a login with a password here; editors give logins."""
        return False


class InstitutionAdapter(DefaultSocialAccountAdapter):
    def is_open_for_signup(self, request: HttpRequest, sociallogin: Any) -> bool:
        """Anybody the institution vouches for gets a login; its rights come from the role
        mapping (signin/services.py), which gives none to a person it does not name."""
        return True

    def on_authentication_error(
        self,
        request: HttpRequest,
        provider: Any,
        error: Any = None,
        exception: Any = None,
        extra_context: Any = None,
    ) -> None:
        """A sign-in whose answer cannot be trusted (a state that does not match, a code or
        token the provider refuses) ends on a 400 page with a sentence, not allauth's page
        with 200."""
        response = TemplateResponse(
            request,
            "signin/refused.html",
            {
                **admin.site.each_context(request),
                "title": "Sign-in refused",
                "institution": settings.SIGNIN_INSTITUTION_NAME,
                "cancelled": str(error) == "cancelled",
            },
            status=400,
        )
        raise ImmediateHttpResponse(response.render())
