"""Colours staff choose, checked for contrast (WCAG 2's relative luminance and contrast ratio)
before they are stored: a colour text cannot be read on is refused with the ratio measured."""

import re

from django.core.exceptions import ValidationError

HEX_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")
# WCAG AA for text of ordinary size.
TEXT_CONTRAST = 4.5


def relative_luminance(colour: str) -> float:
    """The relative luminance of "#rrggbb", 0 (black) to 1 (white)."""

    def linear(channel: float) -> float:
        return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4

    red, green, blue = (linear(int(colour[index : index + 2], 16) / 255) for index in (1, 3, 5))
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast_ratio(first: str, second: str) -> float:
    """From 1 (the same) to 21 (black on white), whichever is the lighter."""
    lighter, darker = sorted((relative_luminance(first), relative_luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


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
