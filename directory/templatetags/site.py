import markdown as markdown_library
import nh3
from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe

register = template.Library()

ALLOWED_TAGS = {
    "a", "abbr", "b", "blockquote", "br", "code", "em", "h2", "h3", "h4", "hr", "i", "li",
    "ol", "p", "pre", "strong", "sub", "sup", "table", "tbody", "td", "th", "thead", "tr", "ul",
}  # fmt: skip


@register.filter
def markdown(text: str) -> str:
    """Markdown written by staff, as HTML with anything executable removed."""
    html = markdown_library.markdown(text or "", extensions=["tables", "sane_lists"])
    cleaned = nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        attributes={"a": {"href", "title"}, "abbr": {"title"}},
        url_schemes={"http", "https", "mailto"},
        link_rel="noopener noreferrer nofollow",
    )
    return mark_safe(cleaned)


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
