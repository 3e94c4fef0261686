from typing import Any

from django import template
from django.template import Context
from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe

from base.icons import PATHS
from base.renditions import sources

register = template.Library()


@register.simple_tag(takes_context=True)
def query_with(context: Context, **changes: Any) -> str:
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


@register.filter
def breakable(text: str) -> str:
    """`text` escaped, with a line-break opportunity after each "@" and "/": "ByteDance@Seattle"
    wraps as "ByteDance@" and "Seattle" in a narrow card, not in the middle of a word."""
    return mark_safe(escape(text).replace("@", "@<wbr>").replace("/", "/<wbr>"))


@register.simple_tag
def icon(name: str) -> str:
    """A decorative line icon (base/icons.py); the generic link icon for an unknown name."""
    path = PATHS.get(name, PATHS["link"])
    return format_html(
        '<svg class="icon" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" '
        'focusable="false" fill="none" stroke="currentColor" stroke-width="2" '
        'stroke-linecap="round" stroke-linejoin="round"><path d="{}"/></svg>',
        path,
    )


@register.inclusion_tag("includes/picture.html")
def illustration(row: Any, use: str, *, css_class: str = "", eager: bool = False) -> dict[str, Any]:
    """A row's picture (base.models.Illustrated) as `use` shows it: a <picture> whose
    renditions were made when it was saved (base/renditions.py); nothing without one.
    A small picture is shown at its own width; a wide one (over 400 px) as wide as the screen
    allows on a phone, so `sizes` tells the browser so."""
    if not row.image:
        return {}
    shape = type(row).image_shapes[use]
    found = sources(row.image.storage, (row.image_renditions or {}).get(use, {}), shape.width)
    fallback = found.pop() if found and found[-1]["type"] == "image/jpeg" else None
    wide = shape.width > 400
    return {
        "row": row,
        "shape": shape,
        "css_class": css_class,
        "sources": found,
        "fallback": fallback,
        "src": fallback["src"] if fallback else row.image.url,
        "sizes": f"(max-width: {shape.width + 64}px) calc(100vw - 2rem), {shape.width}px"
        if wide
        else f"{shape.width}px",
        "eager": eager,
    }
