"""Uploaded images decoded safely: the checks a photo, a logo or a banner passes before Pillow
decodes its pixels, cheapest first, each refusal a message saying what to do.

The pixels are decoded only once the header has shown a reasonable size, so a small file
announcing billions of pixels costs nothing. Codes: not_an_image, too_many_pixels, damaged.
"""

import struct
import warnings
from typing import Any

from django.core.exceptions import ImproperlyConfigured, ValidationError
from django.core.files import File
from django.template.defaultfilters import filesizeformat
from PIL import Image, ImageFile, ImageOps

# What Pillow's parsers and decoders raise on a malformed file (UnidentifiedImageError and
# "image file is truncated" are OSErrors). An upload that raises one is refused, not a crash.
DECODING_ERRORS = (OSError, SyntaxError, ValueError, EOFError, IndexError, struct.error)
# Larger images are scaled down: no page shows more than a few hundred pixels of one.
LONGEST_SIDE = 1600


def refuse_larger_than(upload: File[Any], limit: int, *, noun: str) -> None:
    """An upload over `limit` bytes is refused before anything reads it."""
    if upload.size is not None and upload.size > limit:
        raise ValidationError(
            f"This file is {filesizeformat(upload.size)}; a {noun} can be at most "
            f"{filesizeformat(limit)}.",
            code="too_large",
        )


def not_an_image(noun: str) -> str:
    return f"This file is not a JPEG, PNG or WebP image. Export the {noun} as one and upload it."


def damaged(noun: str) -> str:
    return (
        "This image could not be read to the end: the file is damaged or was cut short. "
        f"Export the {noun} again and upload the new file."
    )


def decode_upload(
    upload: File[Any],
    *,
    noun: str,
    max_pixels: int,
    formats: tuple[str, ...],
    longest_side: int = LONGEST_SIDE,
) -> Image.Image:
    """The upload's pixels, upright and at most `longest_side` wide, or ValidationError."""
    if ImageFile.LOAD_TRUNCATED_IMAGES:
        raise ImproperlyConfigured(
            "PIL.ImageFile.LOAD_TRUNCATED_IMAGES is True: truncated images would be accepted."
        )
    upload.seek(0)
    with warnings.catch_warnings():
        # Pillow warns about images above its own limit, Image.MAX_IMAGE_PIXELS, and raises
        # DecompressionBombError above twice that: both are refusals here.
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            with _open(upload, noun=noun, max_pixels=max_pixels, formats=formats) as image:
                return _decode(image, noun=noun, longest_side=longest_side)
        except (Image.DecompressionBombError, Image.DecompressionBombWarning):
            raise ValidationError(
                f"This image has too many pixels; a {noun} can have at most "
                f"{max_pixels:,} pixels. Make it smaller and upload it again.",
                code="too_many_pixels",
            ) from None


def _open(
    upload: File[Any], *, noun: str, max_pixels: int, formats: tuple[str, ...]
) -> ImageFile.ImageFile:
    """Reads the header only: the format and the size, not the pixels."""
    try:
        # Only the accepted formats' parsers ever see the bytes: a GIF, an SVG or a text file
        # is unidentified, whatever its name.
        image = Image.open(upload, formats=formats)
    except DECODING_ERRORS:
        raise ValidationError(not_an_image(noun), code="not_an_image") from None
    if image.format not in formats:
        image.close()
        raise ValidationError(not_an_image(noun), code="not_an_image")
    width, height = image.size
    if width * height > max_pixels:
        image.close()
        raise ValidationError(
            f"This image is {width:,} × {height:,} pixels; a {noun} can have at most "
            f"{max_pixels:,} pixels. Make it smaller and upload it again.",
            code="too_many_pixels",
        )
    return image


def _decode(image: ImageFile.ImageFile, *, noun: str, longest_side: int) -> Image.Image:
    """The pixels decoded to the last byte, scaled down to `longest_side`, turned upright."""
    try:
        image.load()
        pixels: Image.Image = image
        if image.mode == "P":
            # Pillow resizes palette images by picking pixels; in RGBA they scale down smoothly.
            pixels = image.convert("RGBA")
        # Scaled first, so that the steps below copy a small image, not a 40 megapixel one.
        pixels.thumbnail((longest_side, longest_side), Image.Resampling.LANCZOS)
        return ImageOps.exif_transpose(pixels)
    except DECODING_ERRORS:
        raise ValidationError(damaged(noun), code="damaged") from None
