from django import template
from django.utils.html import format_html

from directory.text import markdown_to_html

register = template.Library()

register.filter("markdown", markdown_to_html)


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
