"""Portrait uploads: checked, re-encoded without their metadata, stored with their thumbnails.

An upload is never stored as it came. Only the pixels Pillow decoded are kept, encoded again as
a JPEG under a generated name, which drops whatever rode along with them: EXIF (camera, GPS
position), comments, bytes appended after the image (HTML, a script), the uploader's file name.
"""

import uuid
from dataclasses import dataclass, field

from django.conf import settings
from django.core.files import File
from django.core.files.base import ContentFile
from PIL import Image

from base import renditions as shared
from base.images import decode_upload, refuse_larger_than
from base.renditions import DENSITIES, RENDITION_FORMATS, Shape
from people.models import Person

__all__ = ["DENSITIES", "PORTRAIT_SIZES", "RENDITION_FORMATS", "clean_photo", "save_photo"]

ACCEPTED_FORMATS = shared.ACCEPTED_FORMATS
LONGEST_SIDE = shared.LONGEST_SIDE
# Square crops for templates/includes/avatar.html: twice the 96 px card and the 192 px profile
# photo, for high-density screens (photos saved before the renditions show them).
THUMBNAIL_SIZE = 192
LARGE_THUMBNAIL_SIZE = 384
# Square renditions at 1x, 2x and 3x of the size each portrait is shown at (CSS pixels): the
# cards' round portrait and the profile's (base/renditions.py makes and stores them).
PORTRAIT_SIZES = {"card": 112, "profile": 160}
PORTRAIT_SHAPES = {use: Shape(size, size) for use, size in PORTRAIT_SIZES.items()}


@dataclass(frozen=True)
class CleanPhoto:
    """A photo's pixels encoded again as JPEG, with its square thumbnails, not yet stored."""

    photo: bytes
    thumbnail: bytes
    large_thumbnail: bytes
    # The portraits' renditions (base/renditions.py), see PORTRAIT_SIZES.
    portraits: shared.CleanImage | None = None
    stem: str = field(default_factory=lambda: uuid.uuid4().hex)

    def as_file(self) -> ContentFile:
        """The photo under its generated name: what a form may put on a Person."""
        return ContentFile(self.photo, name=f"{self.stem}.jpg")


def clean_photo(*, upload: File) -> CleanPhoto:
    """Checks an uploaded photo and re-encodes it, or raises ValidationError saying why not.

    The size first; then base.images decodes it (codes: too_large, not_an_image,
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
    pixels = shared.srgb_pixels(image)
    portraits = shared.rendered(pixels, shapes=PORTRAIT_SHAPES)
    return CleanPhoto(
        photo=portraits.original,
        thumbnail=_jpeg_square(pixels, THUMBNAIL_SIZE),
        large_thumbnail=_jpeg_square(pixels, LARGE_THUMBNAIL_SIZE),
        portraits=portraits,
        stem=portraits.stem,
    )


def _jpeg_square(image: Image.Image, size: int) -> bytes:
    return shared.encoded(shared.cropped(image, size, size), "JPEG")


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
        person.photo_renditions = (
            shared.store(photo.portraits, storage=person.photo.storage, folder="people")
            if photo.portraits
            else {}
        )
    person.save()
    shared.delete_after_commit(person.photo.storage, replaced)


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
    return [name for name in files if name] + shared.stored_names(renditions)
