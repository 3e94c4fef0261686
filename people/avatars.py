"""Initials avatars, drawn with Pillow, for people without a photo."""

import io
import zlib
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

SIZE = 256
# Dark enough that white initials pass WCAG AA contrast on every one of them.
BACKGROUNDS = ["#1f4e79", "#5b2a86", "#7a3b00", "#1d5e3a", "#8a1c3b", "#234b5e", "#4a4a8a"]


def initials_of(name: str) -> str:
    """ "Hang Zhu" → "HZ"; one word gives one letter; at most two letters."""
    words = [word for word in name.replace("-", " ").split() if word[:1].isalpha()]
    if not words:
        return "?"
    letters = words[0][0] + (words[-1][0] if len(words) > 1 else "")
    return letters.upper()


@lru_cache(maxsize=512)
def initials_avatar_png(initials: str) -> bytes:
    """A square PNG with the initials centred; the colour depends only on the initials."""
    initials = initials[:2].upper() or "?"
    background = BACKGROUNDS[zlib.crc32(initials.encode()) % len(BACKGROUNDS)]
    image = Image.new("RGB", (SIZE, SIZE), background)
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=SIZE * 0.42)
    draw.text((SIZE / 2, SIZE / 2), initials, fill="white", font=font, anchor="mm")
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=True)
    return buffer.getvalue()
