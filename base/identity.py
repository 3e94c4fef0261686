"""The lab's own look: its accent colour, type scale, logo and the favicons made from it.

Pages take the accent and the type scale from a small generated stylesheet (`stylesheet`,
served at /identity.css?v=<stamp> by pages/views/identity.py) rather than an inline style, so a
strict Content-Security-Policy stays possible. Its address changes with what it holds, so it is
cached for a year.

A logo is kept only as the site can show it safely: an SVG holding a script, an event handler,
foreign (non-SVG) content, a DOCTYPE or a reference to another file is refused with a message
saying what it found; a raster logo is decoded and encoded again as PNG, which drops whatever
rode along with its pixels. Logos are only ever shown through <img>, where an SVG runs nothing.
"""

import hashlib
import io
import re
import uuid
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.core.files import File
from django.core.files.base import ContentFile
from PIL import Image, ImageDraw, ImageFont

from base.colours import HEX_COLOUR, RGB, contrast, mix, parse_hex, ratio_text, to_hex
from base.images import decode_upload, refuse_larger_than
from base.renditions import encoded, srgb_pixels

if TYPE_CHECKING:
    from base.models import Lab

# The backgrounds links and buttons sit on, in each scheme (static/css/site.css): the page and
# the tinted surface of filters and footers. An accent must read on both.
LIGHT_BACKGROUNDS = ("#ffffff", "#f4f6f9")
DARK_BACKGROUNDS = ("#0f1216", "#181d24")
# WCAG AA for text: links are text.
LINK_CONTRAST = 4.5
DEFAULT_ACCENT = "#1a56a8"
DEFAULT_DARK_ACCENT = "#8ab8ff"

LOGO_MAX_BYTES = 512 * 1024
LOGO_MAX_PIXELS = 16_000_000
BANNER_MAX_BYTES = 12 * 1024 * 1024
BANNER_LONGEST_SIDE = 2400
FAVICON_SIZES = (32, 180, 512)

SVG_NAMESPACE = "http://www.w3.org/2000/svg"
XLINK_NAMESPACE = "http://www.w3.org/1999/xlink"
# Elements that run code or pull in other documents, in an SVG opened on its own.
FORBIDDEN_ELEMENTS = {"script", "foreignObject", "iframe", "embed", "object", "handler", "listener"}


class TypeScale:
    """The type scales staff choose from: body size and the heading sizes, in rem."""

    COMPACT = "compact"
    STANDARD = "standard"
    LARGE = "large"
    CHOICES = [
        (COMPACT, "Compact: smaller text, more on each screen"),
        (STANDARD, "Standard"),
        (LARGE, "Large: bigger text and headings"),
    ]
    SIZES = {
        COMPACT: {"body": "1rem", "h1": "clamp(1.6rem, 1.2rem + 1.8vw, 2.2rem)", "h2": "1.25rem"},
        STANDARD: {
            "body": "1.0625rem",
            "h1": "clamp(1.75rem, 1.3rem + 2vw, 2.5rem)",
            "h2": "1.35rem",
        },
        LARGE: {"body": "1.125rem", "h1": "clamp(1.9rem, 1.4rem + 2.4vw, 2.9rem)", "h2": "1.5rem"},
    }


def worst_contrast(colour: str, backgrounds: tuple[str, ...]) -> float:
    rgb = parse_hex(colour)
    return min(contrast(rgb, parse_hex(background)) for background in backgrounds)


def _check_accent(colour: str, backgrounds: tuple[str, ...], scheme: str) -> None:
    if not HEX_COLOUR.fullmatch(colour):
        raise ValidationError(
            'Give the colour as "#" and six hexadecimal digits, e.g. "#1a56a8".', code="format"
        )
    ratio = worst_contrast(colour, backgrounds)
    if ratio < LINK_CONTRAST:
        raise ValidationError(
            f"This colour has {ratio_text(ratio)} contrast on the {scheme} background; links "
            f"need {LINK_CONTRAST:g}:1. Choose a {'darker' if scheme == 'light' else 'lighter'} "
            "shade.",
            code="low_contrast",
        )


def validate_light_accent(colour: str) -> None:
    """The accent on white pages: links, buttons (white text on it) and the year chart."""
    _check_accent(colour, LIGHT_BACKGROUNDS, "light")


def validate_dark_accent(colour: str) -> None:
    """The accent on the dark scheme's near-black pages."""
    _check_accent(colour, DARK_BACKGROUNDS, "dark")


def dark_variant(colour: str) -> str:
    """The light accent mixed with white until it reads on the dark scheme: what the dark
    scheme uses when staff gave no dark accent of their own."""
    rgb = parse_hex(colour)
    white: RGB = (1.0, 1.0, 1.0)
    for step in range(21):
        candidate = mix(rgb, white, step / 20)
        if worst_contrast(to_hex(candidate), DARK_BACKGROUNDS) >= LINK_CONTRAST:
            return to_hex(candidate)
    return DEFAULT_DARK_ACCENT


def _palette(accent: str, *, dark: bool) -> dict[str, str]:
    rgb = parse_hex(accent)
    black: RGB = (0.0, 0.0, 0.0)
    white: RGB = (1.0, 1.0, 1.0)
    if dark:
        return {
            "--color-accent": accent,
            "--color-accent-strong": to_hex(mix(rgb, white, 0.35)),
            "--color-accent-soft": to_hex(mix(rgb, parse_hex(DARK_BACKGROUNDS[0]), 0.8)),
            "--color-accent-text": DARK_BACKGROUNDS[0],
            "--color-bar": accent,
            "--color-member": to_hex(mix(rgb, white, 0.2)),
        }
    return {
        "--color-accent": accent,
        "--color-accent-strong": to_hex(mix(rgb, black, 0.3)),
        "--color-accent-soft": to_hex(mix(rgb, white, 0.88)),
        "--color-accent-text": "#ffffff",
        "--cv-link": accent,
        "--color-bar": accent,
        "--color-member": to_hex(mix(rgb, black, 0.15)),
    }


def stylesheet(*, accent: str, dark_accent: str, type_scale: str) -> str:
    """The custom properties pages take from the lab's settings (static/css/site.css uses them).

    Empty accents keep the built-in colours."""
    sizes = TypeScale.SIZES.get(type_scale, TypeScale.SIZES[TypeScale.STANDARD])
    light = {
        "--font-size-body": sizes["body"],
        "--font-size-h1": sizes["h1"],
        "--font-size-h2": sizes["h2"],
    }
    dark: dict[str, str] = {}
    if accent:
        light |= _palette(accent, dark=False)
        dark = _palette(dark_accent or dark_variant(accent), dark=True)
    elif dark_accent:
        dark = _palette(dark_accent, dark=True)

    def block(properties: dict[str, str]) -> str:
        return "".join(f"  {name}: {value};\n" for name, value in properties.items())

    css = f"/* The lab's identity (lab settings). */\n:root {{\n{block(light)}}}\n"
    if dark:
        css += f"@media (prefers-color-scheme: dark) {{\n:root {{\n{block(dark)}}}\n}}\n"
    return css + _admin_stylesheet(
        accent or DEFAULT_ACCENT, dark_accent or dark_variant(accent or DEFAULT_ACCENT)
    )


def _admin_stylesheet(accent: str, dark_accent: str) -> str:
    """Django admin's own custom properties in the lab's colours: its header, buttons and links
    (unused by the public pages). The dark ones follow the admin's theme switch."""
    rgb = parse_hex(accent)
    black: RGB = (0.0, 0.0, 0.0)
    strong = to_hex(mix(rgb, black, 0.3))
    deep = to_hex(mix(rgb, black, 0.55))
    light = (
        f"--primary: {accent}; --secondary: {strong}; --header-bg: {strong}; "
        "--header-color: #ffffff; --header-branding-color: #ffffff; --header-link-color: #ffffff; "
        "--accent: #ffffff; "
        f"--breadcrumbs-bg: {accent}; --breadcrumbs-fg: #ffffff; --breadcrumbs-link-fg: #ffffff; "
        f"--link-fg: {accent}; --link-hover-color: {strong}; --link-selected-fg: {strong}; "
        f"--button-bg: {accent}; --button-hover-bg: {strong}; "
        f"--default-button-bg: {strong}; --default-button-hover-bg: {deep};"
    )
    dark = (
        f"--primary: {deep}; --secondary: {deep}; --header-bg: {deep}; --breadcrumbs-bg: {deep}; "
        f"--link-fg: {dark_accent}; --link-hover-color: {dark_accent}; "
        f"--link-selected-fg: {dark_accent}; --button-bg: {deep}; --default-button-bg: {deep};"
    )
    return (
        f"html[data-theme] {{ {light} }}\n"
        f'html[data-theme="dark"] {{ {dark} }}\n'
        "@media (prefers-color-scheme: dark) {\n"
        f'  html[data-theme="auto"] {{ {dark} }}\n'
        "}\n"
    )


def stamp(*parts: str) -> str:
    """A short fingerprint of what the stylesheet and the logos hold: their addresses change
    with it, so browsers may keep them for a year."""
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:12]


@dataclass(frozen=True)
class CleanLogo:
    """A logo as the site keeps it: SVG as uploaded once checked, or a raster one as PNG."""

    content: bytes
    extension: str  # "svg" or "png"
    stem: str = field(default_factory=lambda: uuid.uuid4().hex)

    @property
    def name(self) -> str:
        return f"{self.stem}.{self.extension}"


def clean_logo(*, upload: File[Any]) -> CleanLogo:
    """Checks an uploaded logo, or raises ValidationError saying why it cannot be used."""
    refuse_larger_than(upload, LOGO_MAX_BYTES, noun="logo")
    upload.seek(0)
    head = upload.read(1024)
    upload.seek(0)
    if b"<svg" in head or head.lstrip().startswith(b"<"):
        return CleanLogo(content=clean_svg(upload.read()), extension="svg")
    image = decode_upload(
        upload, noun="logo", max_pixels=LOGO_MAX_PIXELS, formats=("PNG", "JPEG", "WEBP")
    )
    if image.mode not in {"RGB", "RGBA"}:
        image = image.convert("RGBA")
    image.info = {}
    return CleanLogo(content=encoded(image, "PNG"), extension="png")


def _local(name: str) -> str:
    return name.rsplit("}", 1)[-1]


def _refuse_svg(found: str) -> ValidationError:
    return ValidationError(
        f"This SVG holds {found}, which a logo may not. Export the logo again as plain shapes "
        "(in Inkscape: Save As, Optimized SVG) and upload the new file.",
        code="unsafe_svg",
    )


def clean_svg(content: bytes) -> bytes:
    """The SVG unchanged when it holds only drawing; else ValidationError naming what it found.

    A DOCTYPE is refused before parsing, so no entity is ever expanded."""
    if re.search(rb"<!DOCTYPE|<!ENTITY", content, re.IGNORECASE):
        raise _refuse_svg("a DOCTYPE or entity declaration")
    try:
        root = ElementTree.fromstring(content)
    except ElementTree.ParseError:
        raise ValidationError(
            "This SVG file could not be read: it is not well-formed XML. Export it again.",
            code="not_an_image",
        ) from None
    if root.tag != f"{{{SVG_NAMESPACE}}}svg":
        raise ValidationError(
            "This file is not an SVG image (its root is not an <svg> element in the SVG "
            'namespace, xmlns="http://www.w3.org/2000/svg").',
            code="not_an_image",
        )
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue  # a comment or a processing instruction: not drawn, not run
        namespace = element.tag[1:].split("}", 1)[0] if element.tag.startswith("{") else ""
        if namespace != SVG_NAMESPACE:
            raise _refuse_svg(f"foreign (non-SVG) content, <{_local(element.tag)}>")
        if _local(element.tag) in FORBIDDEN_ELEMENTS:
            raise _refuse_svg(f"a <{_local(element.tag)}> element")
        if _local(element.tag) == "style" and re.search(
            r"@import|url\s*\(\s*['\"]?(?!#)", element.text or ""
        ):
            raise _refuse_svg("a style sheet that loads another file")
        for name, value in element.attrib.items():
            local = _local(name)
            if local.lower().startswith("on"):
                raise _refuse_svg(f'an event handler ("{local}")')
            if local == "href" and not value.strip().startswith("#"):
                raise _refuse_svg("a link or a reference to another file")
            if "javascript:" in value.lower() or re.search(r"url\s*\(\s*['\"]?(?!#)", value):
                raise _refuse_svg("a reference to another file or a script")
    return content


def favicons(*, logo: CleanLogo, initials: str, accent: str) -> dict[int, bytes]:
    """PNG icons of FAVICON_SIZES pixels: the raster logo centred on a transparent square, or,
    for an SVG logo (which Pillow cannot draw), the lab's initials on its accent colour; browsers
    that read SVG icons are given the SVG logo itself (templates/base.html)."""
    if logo.extension == "png":
        with Image.open(io.BytesIO(logo.content)) as opened:
            source = opened.convert("RGBA")
    else:
        source = initials_icon(initials=initials, accent=accent or DEFAULT_ACCENT)
    icons = {}
    for size in FAVICON_SIZES:
        square = Image.new("RGBA", (size, size), (0, 0, 0, 0))
        copy = source.copy()
        copy.thumbnail((size, size), Image.Resampling.LANCZOS)
        square.paste(copy, ((size - copy.width) // 2, (size - copy.height) // 2), copy)
        icons[size] = encoded(square, "PNG")
    return icons


def initials_icon(*, initials: str, accent: str, size: int = 512) -> Image.Image:
    """White initials on a rounded square of the accent colour."""
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, size - 1, size - 1), radius=size // 6, fill=accent)
    font = ImageFont.load_default(size=size * 0.42)
    draw.text((size / 2, size / 2), initials, fill="#ffffff", font=font, anchor="mm")
    return image


def clean_banner(*, upload: File[Any]) -> ContentFile[Any]:
    """A banner or group photo decoded and encoded again as JPEG, under a generated name."""
    refuse_larger_than(upload, BANNER_MAX_BYTES, noun="banner")
    image = decode_upload(
        upload,
        noun="banner",
        max_pixels=LOGO_MAX_PIXELS * 3,
        formats=("JPEG", "PNG", "WEBP"),
        longest_side=BANNER_LONGEST_SIDE,
    )
    return ContentFile(encoded(srgb_pixels(image), "JPEG"), name=f"{uuid.uuid4().hex}.jpg")


def store_favicons(lab: "Lab") -> None:
    """Makes the lab's PNG icons from its logo (or empties them when it has none), stored under
    generated names on `lab`, not saved. Reads the logo file once."""
    if not lab.logo:
        lab.favicon_32 = lab.favicon_180 = lab.favicon_512 = ""
        return
    with lab.logo.open("rb") as stored:
        content = stored.read()
    extension = "svg" if lab.logo.name.endswith(".svg") else "png"
    initials = "".join(word[0] for word in lab.name.split()[:2] if word[:1].isalnum()) or "L"
    icons = favicons(
        logo=CleanLogo(content=content, extension=extension),
        initials=initials.upper(),
        accent=lab.accent_colour,
    )
    stem = uuid.uuid4().hex
    for size, png in icons.items():
        getattr(lab, f"favicon_{size}").save(f"{stem}-{size}.png", ContentFile(png), save=False)
