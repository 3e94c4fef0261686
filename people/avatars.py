"""Generated avatars for people without a photo: their initials on a colour of their own.

Drawn in the page as SVG (templates/includes/avatar.html), so an avatar costs no request and is
sharp at any size. The colour comes from the person, not from the initials: three people whose
initials are "HZ" get three colours.
"""

import colorsys
import unicodedata
import zlib

GOLDEN_ANGLE = 137.50776405  # degrees: consecutive people land far apart on the colour wheel
# White initials need a contrast of at least 4.5:1 (WCAG AA) on every background.
MINIMUM_CONTRAST = 4.5


def first_letter(word: str) -> str:
    """The word's first letter as one capital: "ﬁ" (a ligature) gives "F", "ŉ" gives "N", "ß"
    gives "S". Upper-casing alone turns such letters into two."""
    for char in unicodedata.normalize("NFKC", word):
        if char.isalpha() and unicodedata.category(char) != "Lm":
            return char.upper()[0]
    return ""


def initials_of(name: str) -> str:
    """ "Hang Zhu" → "HZ"; one word gives one letter; never more than two letters."""
    letters = [letter for word in name.replace("-", " ").split() if (letter := first_letter(word))]
    if not letters:
        return "?"
    return letters[0] + (letters[-1] if len(letters) > 1 else "")


def _luminance(rgb: tuple[float, float, float]) -> float:
    def linear(channel: float) -> float:
        return channel / 12.92 if channel <= 0.03928 else ((channel + 0.055) / 1.055) ** 2.4

    red, green, blue = (linear(channel) for channel in rgb)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def avatar_colour(*, number: int | None, name: str) -> str:
    """A dark colour for white initials, as "#rrggbb". People are told apart by their number
    (their row's id): each is a golden angle further round the wheel than the one before, and a
    shade darker or lighter, so people added one after the other look nothing alike and a
    department of hundreds has no two alike. A person not yet saved takes one from their name."""
    seed = number if number is not None else zlib.crc32(name.encode())
    # The wheel less its olive-yellow stretch (50° to 95°), which turns muddy when darkened.
    degrees = (seed * GOLDEN_ANGLE) % 315
    hue = (degrees + 45 if degrees >= 50 else degrees) / 360
    lightness = (0.28, 0.33, 0.38)[seed % 3]
    rgb = colorsys.hls_to_rgb(hue, lightness, 0.55)
    while (1.05) / (_luminance(rgb) + 0.05) < MINIMUM_CONTRAST:
        lightness -= 0.02
        rgb = colorsys.hls_to_rgb(hue, lightness, 0.55)
    return "#" + "".join(f"{round(channel * 255):02x}" for channel in rgb)
