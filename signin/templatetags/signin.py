from django import template
from django.conf import settings
from django.urls import reverse

register = template.Library()


@register.inclusion_tag("signin/buttons.html", takes_context=True)
def institution_sign_in(context: template.Context) -> dict[str, object]:
    """The "Sign in with <institution>" buttons for the configured identity providers."""
    buttons = []
    if settings.OIDC_ISSUER_URL:
        buttons.append(
            reverse("openid_connect_login", kwargs={"provider_id": settings.SIGNIN_PROVIDER_ID})
        )
    if settings.SAML_METADATA_URL:
        buttons.append(
            reverse(
                "saml_login", kwargs={"organization_slug": f"{settings.SIGNIN_PROVIDER_ID}-saml"}
            )
        )
    request = context.get("request")
    return {
        "buttons": buttons,
        "institution": settings.SIGNIN_INSTITUTION_NAME,
        "next": context.get("next") or "",
        "csrf_token": context.get("csrf_token"),
        "request": request,
    }


@register.simple_tag
def institution_name() -> str:
    """The institution people sign in with, as the sign-in pages name it."""
    return str(settings.SIGNIN_INSTITUTION_NAME)
