"""Images shown at several sizes: portraits, and the pictures of news items, papers and groups.

An upload is never stored as it came. Only the pixels Pillow decoded (base/images.py) are
kept, in sRGB, encoded again under a generated name, which drops whatever rode along with them:
EXIF (camera, GPS position), comments, bytes appended after the image, the uploader's file
name. The renditions are made once, when the image is saved: for each place it is shown (a
`Shape`, in CSS pixels), a crop at 1x, 2x and 3x in AVIF (where Pillow writes it), WebP and
JPEG. The browser picks one from `srcset` by the screen's density, in the first format it reads
(`sources`); no page ever touches the files.
"""

import contextlib
import io
import re
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from django.core.files import File
from django.core.files.base import ContentFile
from django.core.files.storage import Storage
from django.db import transaction
from PIL import Image, ImageCms, ImageOps, features

from base.images import decode_upload, refuse_larger_than

ACCEPTED_FORMATS = ("JPEG", "PNG", "WEBP")
# Larger images are scaled down: no page shows more than a few hundred pixels of one.
LONGEST_SIDE = 1600
JPEG_QUALITY = 85
DENSITIES = (1, 2, 3)
# Best first: the browser takes the first <source> it reads; the JPEG is the <img> itself.
RENDITION_FORMATS = [
    (name, extension)
    for name, extension in (("AVIF", "avif"), ("WEBP", "webp"), ("JPEG", "jpg"))
    if name == "JPEG" or features.check(name.lower())
]
# The names `store` gives; only files named so are deleted when an image is replaced, since a
# file stored before them may be shared with another row.
GENERATED_NAME = re.compile(r"[a-z]+/[0-9a-f]{32}(-[a-z]+)?(-[0-9]+)?\.(jpg|webp|avif|png)")

# {use: {format extension: [name at 1x, at 2x, at 3x]}}: what a model keeps in its JSON field.
Renditions = dict[str, dict[str, list[str]]]


@dataclass(frozen=True)
class Shape:
    """Where an image is shown, in CSS pixels: it is cropped to these proportions."""

    width: int
    height: int


@dataclass(frozen=True)
class CleanImage:
    """An image's pixels encoded again as JPEG, with its renditions, not yet stored."""

    original: bytes
    # {(use, format extension, width in pixels): encoded crop}, see Shape.
    renditions: dict[tuple[str, str, int], bytes]
    stem: str = field(default_factory=lambda: uuid.uuid4().hex)

    def as_file(self) -> ContentFile[bytes]:
        """The image under its generated name: what a form may put on a model."""
        return ContentFile(self.original, name=f"{self.stem}.jpg")


def clean_image(
    *,
    upload: File[Any],
    noun: str,
    max_bytes: int,
    max_pixels: int,
    shapes: Mapping[str, Shape],
) -> CleanImage:
    """Checks an uploaded image and re-encodes it with its renditions, or raises
    ValidationError saying why not (codes: too_large, not_an_image, too_many_pixels, damaged).
    """
    refuse_larger_than(upload, max_bytes, noun=noun)
    upright = decode_upload(
        upload,
        noun=noun,
        max_pixels=max_pixels,
        formats=ACCEPTED_FORMATS,
        longest_side=LONGEST_SIDE,
    )
    return rendered(srgb_pixels(upright), shapes=shapes)


def rendered(pixels: Image.Image, *, shapes: Mapping[str, Shape]) -> CleanImage:
    return CleanImage(
        original=encoded(pixels, "JPEG"),
        renditions={
            (use, extension, shape.width * density): encoded(
                cropped(pixels, shape.width * density, shape.height * density), name
            )
            for use, shape in shapes.items()
            for density in DENSITIES
            for name, extension in RENDITION_FORMATS
        },
    )


def srgb_pixels(image: Image.Image) -> Image.Image:
    """RGB in sRGB, transparent parts on white, and nothing else: no EXIF, profile or comment."""
    profile = image.info.get("icc_profile")
    if profile and image.mode in {"RGB", "CMYK"}:
        # Without this, a wide-gamut (Display P3) or CMYK photo would look washed out once its
        # profile is dropped. A broken profile, or one for other colours, is ignored.
        with contextlib.suppress(ImageCms.PyCMSError, OSError):
            converted = ImageCms.profileToProfile(
                image,
                ImageCms.ImageCmsProfile(io.BytesIO(profile)),
                ImageCms.createProfile("sRGB"),
                outputMode="RGB",
            )
            image = converted or image
    if image.mode in {"RGBA", "LA", "PA"} or "transparency" in image.info:
        rgba = image.convert("RGBA")
        pixels = Image.new("RGB", rgba.size, "white")
        pixels.paste(rgba, mask=rgba.getchannel("A"))
    else:
        pixels = image.convert("RGB")
    pixels.info = {}
    return pixels


def cropped(image: Image.Image, width: int, height: int) -> Image.Image:
    """The middle of `image` in the proportions width:height, scaled to that size."""
    return ImageOps.fit(image, (width, height), Image.Resampling.LANCZOS)


def encoded(image: Image.Image, format: str) -> bytes:
    buffer = io.BytesIO()
    if format == "JPEG":
        image.save(buffer, format="JPEG", quality=JPEG_QUALITY, optimize=True, progressive=True)
    elif format == "PNG":
        image.save(buffer, format="PNG", optimize=True)
    else:
        image.save(buffer, format=format, quality=JPEG_QUALITY - 15)
    return buffer.getvalue()


def store(image: CleanImage, *, storage: Storage, folder: str) -> Renditions:
    """Saves the renditions under generated names in `folder`; the stored names by use."""
    renditions: Renditions = {}
    for (use, extension, width), content in image.renditions.items():
        name = storage.save(
            f"{folder}/{image.stem}-{use}-{width}.{extension}", ContentFile(content)
        )
        renditions.setdefault(use, {}).setdefault(extension, []).append(name)
    return renditions


def stored_names(renditions: Renditions | None) -> list[str]:
    return [
        name
        for formats in (renditions or {}).values()
        for names in formats.values()
        for name in names
    ]


def delete_after_commit(storage: Storage, names: Iterable[str]) -> None:
    """Deletes the generated files among `names` once the transaction commits, so a rollback
    leaves the old row with its files."""
    obsolete = [name for name in names if name and GENERATED_NAME.fullmatch(name)]
    if obsolete:
        transaction.on_commit(partial(_delete_files, storage, obsolete))


def _delete_files(storage: Storage, names: list[str]) -> None:
    for name in names:
        storage.delete(name)


def sources(
    storage: Storage, renditions: Mapping[str, list[str]], width: int
) -> list[dict[str, str]]:
    """The `<source>`s of a `<picture>`, best format first, JPEG last (the `<img>`'s own):
    {"type", "srcset", "src"}, with `width` the CSS pixels the image is shown at."""
    answer = []
    for name, extension in RENDITION_FORMATS:
        if extension in renditions:
            stored = renditions[extension]
            answer.append(
                {
                    "type": f"image/{name.lower()}",
                    "srcset": ", ".join(
                        f"{storage.url(file)} {width * density}w"
                        for file, density in zip(stored, DENSITIES, strict=False)
                    ),
                    "src": storage.url(stored[0]),
                }
            )
    return answer
