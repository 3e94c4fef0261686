"""Portrait uploads: checked, re-encoded without their metadata, stored with their thumbnails.

An upload is never stored as it came. Only the pixels Pillow decoded are kept, encoded again as
a JPEG under a generated name, which drops whatever rode along with them: EXIF (camera, GPS
position), comments, bytes appended after the image (HTML, a script), the uploader's file name.
"""

import contextlib
import io
import re
import uuid
from dataclasses import dataclass, field
from functools import partial

from django.conf import settings
from django.core.files import File
from django.core.files.base import ContentFile
from django.core.files.storage import Storage
from django.db import transaction
from PIL import Image, ImageCms, ImageOps, features

from directory.images import decode_upload, refuse_larger_than
from people.models import Person

ACCEPTED_FORMATS = ("JPEG", "PNG", "WEBP")
# Larger photos are scaled down: no page shows more than a few hundred pixels of one.
LONGEST_SIDE = 1600
# Square crops for templates/includes/avatar.html: twice the 96 px card and the 192 px profile
# photo, for high-density screens.
THUMBNAIL_SIZE = 192
LARGE_THUMBNAIL_SIZE = 384
JPEG_QUALITY = 85
# Square renditions at 1x, 2x and 3x of the size each portrait is shown at (CSS pixels): the
# cards' round portrait and the profile's. The browser picks one from `srcset` by the screen's
# density, in the first format it reads: AVIF (where Pillow writes it), WebP, then JPEG.
PORTRAIT_SIZES = {"card": 112, "profile": 160}
DENSITIES = (1, 2, 3)
RENDITION_FORMATS = [
    (name, extension)
    for name, extension in (("AVIF", "avif"), ("WEBP", "webp"), ("JPEG", "jpg"))
    if name == "JPEG" or features.check(name.lower())
]
# The names save_photo gives; only files named so are deleted when a photo is replaced, since
# a file uploaded before them may be shared with another row.
GENERATED_NAME = re.compile(r"people/[0-9a-f]{32}(-[0-9]+)?\.(jpg|webp|avif)")


@dataclass(frozen=True)
class CleanPhoto:
    """A photo's pixels encoded again as JPEG, with its square thumbnails, not yet stored."""

    photo: bytes
    thumbnail: bytes
    large_thumbnail: bytes
    # {(use, format extension, pixels): encoded square}, see PORTRAIT_SIZES.
    renditions: dict[tuple[str, str, int], bytes] = field(default_factory=dict)
    stem: str = field(default_factory=lambda: uuid.uuid4().hex)

    def as_file(self) -> ContentFile:
        """The photo under its generated name: what a form may put on a Person."""
        return ContentFile(self.photo, name=f"{self.stem}.jpg")


def clean_photo(*, upload: File) -> CleanPhoto:
    """Checks an uploaded photo and re-encodes it, or raises ValidationError saying why not.

    The size first; then directory.images decodes it (codes: too_large, not_an_image,
    too_many_pixels, damaged).
    """
    refuse_larger_than(upload, settings.PHOTO_MAX_BYTES, noun="photo")
    upright = decode_upload(
        upload,
        noun="photo",
        max_pixels=settings.PHOTO_MAX_PIXELS,
        formats=ACCEPTED_FORMATS,
        longest_side=LONGEST_SIDE,
    )
    return _encode(upright)


def _encode(image: Image.Image) -> CleanPhoto:
    pixels = _srgb_pixels(image)
    return CleanPhoto(
        photo=_jpeg(pixels),
        thumbnail=_jpeg(_square(pixels, THUMBNAIL_SIZE)),
        large_thumbnail=_jpeg(_square(pixels, LARGE_THUMBNAIL_SIZE)),
        renditions={
            (use, extension, size * density): _encoded(_square(pixels, size * density), name)
            for use, size in PORTRAIT_SIZES.items()
            for density in DENSITIES
            for name, extension in RENDITION_FORMATS
        },
    )


def _srgb_pixels(image: Image.Image) -> Image.Image:
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


def _square(image: Image.Image, size: int) -> Image.Image:
    return ImageOps.fit(image, (size, size), Image.Resampling.LANCZOS)


def _jpeg(image: Image.Image) -> bytes:
    return _encoded(image, "JPEG")


def _encoded(image: Image.Image, format: str) -> bytes:
    buffer = io.BytesIO()
    if format == "JPEG":
        image.save(buffer, format="JPEG", quality=JPEG_QUALITY, optimize=True, progressive=True)
    else:
        image.save(buffer, format=format, quality=JPEG_QUALITY - 15)
    return buffer.getvalue()


def save_photo(*, person: Person, photo: CleanPhoto | None) -> None:
    """Saves `person` with `photo` and its thumbnails, or with no photo when `photo` is None.

    The files are stored under generated names. The generated files they replace are deleted
    once the transaction commits, so a rollback leaves the old row with its files. Reads the
    row's stored names first: one query for a person already saved.
    """
    replaced = _stored_names(person)
    if photo is None:
        person.photo = person.photo_thumbnail = person.photo_thumbnail_large = ""
        person.photo_renditions = {}
    else:
        person.photo.save(f"{photo.stem}.jpg", ContentFile(photo.photo), save=False)
        person.photo_thumbnail.save(
            f"{photo.stem}-{THUMBNAIL_SIZE}.jpg", ContentFile(photo.thumbnail), save=False
        )
        person.photo_thumbnail_large.save(
            f"{photo.stem}-{LARGE_THUMBNAIL_SIZE}.jpg",
            ContentFile(photo.large_thumbnail),
            save=False,
        )
        renditions: dict[str, dict[str, list[str]]] = {}
        storage = person.photo.storage
        for (use, extension, size), content in photo.renditions.items():
            name = storage.save(f"people/{photo.stem}-{size}.{extension}", ContentFile(content))
            renditions.setdefault(use, {}).setdefault(extension, []).append(name)
        person.photo_renditions = renditions
    person.save()
    obsolete = [name for name in replaced if GENERATED_NAME.fullmatch(name)]
    if obsolete:
        transaction.on_commit(partial(_delete_files, person.photo.storage, obsolete))


def _stored_names(person: Person) -> list[str]:
    if person.pk is None:
        return []
    row = (
        Person.objects.filter(pk=person.pk)
        .values_list("photo", "photo_thumbnail", "photo_thumbnail_large", "photo_renditions")
        .first()
    )
    if row is None:
        return []
    *files, renditions = row
    names = [name for name in files if name]
    for formats in (renditions or {}).values():
        for stored in formats.values():
            names.extend(stored)
    return names


def _delete_files(storage: Storage, names: list[str]) -> None:
    for name in names:
        storage.delete(name)
