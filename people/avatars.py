"""Generated avatars for people without a photo: their initials on a pale tint of their own.

Drawn in the page as SVG (templates/includes/avatar.html), so an avatar costs no request and is
sharp at any size. The colour comes from the person, not from the initials: three people whose
initials are "HZ" get three tints.
"""

import colorsys
import unicodedata
import zlib

from base.colours import contrast, parse_hex, to_hex

GOLDEN_ANGLE = 137.50776405  # degrees: consecutive people land far apart on the colour wheel
# The initials need a contrast of at least 4.5:1 (WCAG AA) on their tint.
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


def avatar_colours(*, number: int | None, name: str) -> tuple[str, str]:
    """A quiet placeholder's colours, as "#rrggbb": a pale tint and darker initials of the same
    hue, at least 4.5:1 apart (WCAG AA). People are told apart by their number (their row's
    id): each is a golden angle further round the wheel than the one before, so people added
    one after the other look nothing alike. A person not yet saved takes one from their name.
    The dark scheme turns both round (static/css/site.css), keeping the hue and the contrast."""
    seed = number if number is not None else zlib.crc32(name.encode())
    hue = ((seed * GOLDEN_ANGLE) % 360) / 360
    tint = colorsys.hls_to_rgb(hue, (0.9, 0.92, 0.88)[seed % 3], 0.6)
    lightness = 0.32
    text = colorsys.hls_to_rgb(hue, lightness, 0.5)
    while contrast(parse_hex(to_hex(text)), parse_hex(to_hex(tint))) < MINIMUM_CONTRAST:
        lightness -= 0.02
        text = colorsys.hls_to_rgb(hue, lightness, 0.5)
    return to_hex(tint), to_hex(text)
