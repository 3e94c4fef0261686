from django import template
from django.utils.html import format_html

from directory.icons import PATHS

register = template.Library()


@register.simple_tag(takes_context=True)
def query_with(context, **changes) -> str:
    """The current query string with some parameters replaced; None removes one."""
    query = context["request"].GET.copy()
    for name, value in changes.items():
        query.pop(name, None)
        if value is not None:
            query[name] = value
    encoded = query.urlencode()
    return f"?{encoded}" if encoded else "?"


@register.simple_tag
def email_address(address: str) -> str:
    """An address people read and simple harvesters don't: "name [at] host [dot] org".

    static/js/site.js turns it into a mailto link in the browser.
    """
    if not address or "@" not in address:
        return ""
    user, domain = address.rsplit("@", 1)
    readable = f"{user} [at] {domain.replace('.', ' [dot] ')}"
    return format_html('<span class="email js-email">{}</span>', readable)


@register.simple_tag
def icon(name: str) -> str:
    """A decorative line icon (directory/icons.py); the generic link icon for an unknown name."""
    path = PATHS.get(name, PATHS["link"])
    return format_html(
        '<svg class="icon" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" '
        'focusable="false" fill="none" stroke="currentColor" stroke-width="2" '
        'stroke-linecap="round" stroke-linejoin="round"><path d="{}"/></svg>',
        path,
    )
