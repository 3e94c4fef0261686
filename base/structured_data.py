"""What indexers and link previews read from a page: schema.org JSON-LD, built as data by each
app (people/structured_data.py, publications/structured_data.py), written into the page here.
"""

import json
from collections.abc import Mapping
from typing import Any, TypeVar

from django.http import HttpRequest
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from base.validation import without_control_characters

# What Django's json_script escapes: no "</script>" or "<!--" can end the block early.
JSON_HTML_ESCAPES = {ord("<"): "\\u003C", ord(">"): "\\u003E", ord("&"): "\\u0026"}

Value = TypeVar("Value")


def json_ld_script(data: dict[str, Any]) -> SafeString:
    # Control characters (in a row stored before validation) are dropped, not escaped: indexers
    # would show them.
    data = without_control_characters(data)
    text = json.dumps(data, ensure_ascii=False, sort_keys=False).translate(JSON_HTML_ESCAPES)
    return format_html('<script type="application/ld+json">{}</script>', mark_safe(text))


def described(schema_type: str, obj: Any, *, request: HttpRequest) -> dict[str, Any]:
    """The start of every page's own JSON-LD: its type, and its address as its identity."""
    url = request.build_absolute_uri(obj.get_absolute_url())
    return {"@context": "https://schema.org", "@type": schema_type, "@id": url, "url": url}


def without_empty(values: Mapping[str, Value]) -> dict[str, Value]:
    """`values` without those that are empty ("", None): JSON-LD and CSL-JSON leave out what is
    not known rather than say it is blank. In the order given."""
    return {key: value for key, value in values.items() if value not in ("", None)}
