"""Reading what a service sends, within bounds: JSON and XML parsed safely, and small helpers
that take a value out of parsed JSON only when it has the expected shape.

The services' answers and the files staff upload are untrusted: a document larger than
MAX_DOCUMENT_BYTES is refused before it is parsed, XML is parsed by defusedxml, which refuses
any entity declaration (the "billion laughs" bomb, external entities) and never opens a
network address, and JSON nested deeper than Python can recurse is an error, never a crash.
"""

import json
from typing import Any
from xml.etree.ElementTree import Element, ParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring

# A lab member's whole ORCID record or dblp page is a few hundred kilobytes; a response or file
# beyond this is refused unread.
MAX_DOCUMENT_BYTES = 8 * 1024 * 1024


class Unreadable(Exception):
    """The document cannot be read; the message says why, in a sentence for staff."""


def too_large(size: int, *, what: str) -> str:
    return (
        f"{what} is {size:,} bytes, larger than {MAX_DOCUMENT_BYTES // (1024 * 1024)} MB, the "
        "most an import reads."
    )


def parse_json(data: bytes, *, what: str) -> Any:
    if len(data) > MAX_DOCUMENT_BYTES:
        raise Unreadable(too_large(len(data), what=what))
    try:
        return json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise Unreadable(f"{what} is not UTF-8 text.") from None
    except RecursionError:
        raise Unreadable(f"{what} nests its values too deeply to be read.") from None
    except ValueError as error:
        raise Unreadable(f"{what} is not valid JSON ({_first_line(str(error))}).") from None


def parse_xml(data: bytes, *, what: str) -> Element:
    if len(data) > MAX_DOCUMENT_BYTES:
        raise Unreadable(too_large(len(data), what=what))
    try:
        root: Element = fromstring(data, forbid_dtd=False, forbid_entities=True)
    except DefusedXmlException:
        raise Unreadable(
            f"{what} declares XML entities, which an import never expands: it is refused."
        ) from None
    except ParseError as error:
        raise Unreadable(f"{what} is not valid XML ({_first_line(str(error))}).") from None
    return root


def _first_line(message: str) -> str:
    return message.splitlines()[0] if message else "no detail"


def dig(value: Any, *path: str | int) -> Any:
    """`value[path[0]][path[1]]…`, or None where the document has another shape."""
    for step in path:
        if isinstance(step, int) and isinstance(value, list) and -len(value) <= step < len(value):
            value = value[step]
        elif isinstance(step, str) and isinstance(value, dict):
            value = value.get(step)
        else:
            return None
    return value


def text(value: Any, *path: str | int) -> str:
    """The text at `path`, a number as text; "" where there is none."""
    found = dig(value, *path)
    if isinstance(found, bool):
        return ""
    if isinstance(found, str | int | float):
        return str(found).strip()
    return ""


def items(value: Any, *path: str | int) -> list[Any]:
    found = dig(value, *path)
    return found if isinstance(found, list) else []


def element_text(element: Element | None) -> str:
    """An XML element's text with its children's ("<i>x</i>" in a dblp title), spaces
    collapsed."""
    if element is None:
        return ""
    return " ".join("".join(element.itertext()).split())
