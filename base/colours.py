"""Colours as WCAG measures them: relative luminance and contrast ratio, and mixing.

The lab's accent colour (base/identity.py), a venue's badge colour and the generated
avatars (people/avatars.py) are all checked against the same formula, so a colour staff pick is
judged as the site judges its own.
"""

import re

from django.core.exceptions import ValidationError

HEX_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")

RGB = tuple[float, float, float]


def parse_hex(colour: str) -> RGB:
    """ "#1a56a8" → channels between 0 and 1."""
    return tuple(int(colour[index : index + 2], 16) / 255 for index in (1, 3, 5))  # type: ignore[return-value]


def to_hex(rgb: RGB) -> str:
    return "#" + "".join(f"{round(min(max(channel, 0.0), 1.0) * 255):02x}" for channel in rgb)


def luminance(rgb: RGB) -> float:
    """WCAG 2's relative luminance of an sRGB colour."""

    def linear(channel: float) -> float:
        return channel / 12.92 if channel <= 0.03928 else ((channel + 0.055) / 1.055) ** 2.4

    red, green, blue = (linear(channel) for channel in rgb)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(first: RGB, second: RGB) -> float:
    """WCAG 2's contrast ratio, from 1 (the same) to 21 (black on white)."""
    lighter, darker = sorted((luminance(first), luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def mix(colour: RGB, other: RGB, share: float) -> RGB:
    """`colour` with `share` (0 to 1) of `other` mixed in."""
    return tuple(a + (b - a) * share for a, b in zip(colour, other, strict=True))  # type: ignore[return-value]


def ratio_text(ratio: float) -> str:
    """2.94 → "2.9:1", as staff read it (rounded down, so 4.46 never reads as passing 4.5)."""
    return f"{int(ratio * 10) / 10:g}:1"


# Colours staff choose for text to stand on (a venue's badge), refused at save when the text
# would not stand out: WCAG AA for text of ordinary size.
TEXT_CONTRAST = 4.5


def relative_luminance(colour: str) -> float:
    """The relative luminance of "#rrggbb", 0 (black) to 1 (white)."""
    return luminance(parse_hex(colour))


def contrast_ratio(first: str, second: str) -> float:
    """The contrast ratio of two "#rrggbb" colours."""
    return contrast(parse_hex(first), parse_hex(second))


def validate_badge_colour(value: str) -> None:
    """A badge colour: "#rrggbb", on which white text stands out at least 4.5:1."""
    if not HEX_COLOUR.fullmatch(value):
        raise ValidationError(
            'Write the colour as # and six hexadecimal digits, e.g. "#7a1f5c".', code="format"
        )
    ratio = contrast_ratio(value, "#ffffff")
    if ratio < TEXT_CONTRAST:
        raise ValidationError(
            "White text on %(colour)s has a contrast of only %(ratio).1f:1; a badge needs at "
            "least 4.5:1. Choose a darker colour.",
            code="contrast",
            params={"colour": value, "ratio": ratio},
        )
