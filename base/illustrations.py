"""The picture of a news item, a paper or a group (base.models.Illustrated): the form that
checks it, and the save that stores its renditions and deletes the files it replaces.

The admin forms of the three models use `IllustratedForm` and their admins `IllustratedAdmin`,
so staff and members editing their own papers see the same checks and messages.
"""

from typing import Any

from django import forms
from django.conf import settings
from django.core.files.uploadedfile import UploadedFile
from django.db import models

from base.history import HistoryAdmin
from base.models import IMAGE_NEEDS_ALT_TEXT, Illustrated
from base.renditions import CleanImage, clean_image, delete_after_commit, store, stored_names


def clean_illustration(*, upload: UploadedFile, model: type[Illustrated]) -> CleanImage:
    """Checks an uploaded image and makes its renditions for `model`'s pages, or raises
    ValidationError saying why not (the photo limits: PHOTO_MAX_BYTES, PHOTO_MAX_PIXELS)."""
    return clean_image(
        upload=upload,
        noun="picture",
        max_bytes=settings.PHOTO_MAX_BYTES,
        max_pixels=settings.PHOTO_MAX_PIXELS,
        shapes=model.image_shapes,
    )


def put_image(row: Illustrated, image: CleanImage | None) -> list[str]:
    """Stores `image` and its renditions on `row` (not saved), or takes its image away when
    None; the names of the files they replace, for `delete_replaced` once the row is saved.
    Reads the row's stored names: one query for a row already saved."""
    replaced = _stored_names(row)
    if image is None:
        row.image = ""
        row.image_renditions = {}
    else:
        row.image.save(f"{image.stem}.jpg", image.as_file(), save=False)
        row.image_renditions = store(image, storage=row.image.storage, folder=row.image_folder)
    return replaced


def delete_replaced(row: Illustrated, replaced: list[str]) -> None:
    """Deletes the generated files `put_image` replaced, once the save commits."""
    delete_after_commit(row.image.storage, replaced)


def save_with_image(*, row: Illustrated, image: CleanImage | None) -> None:
    """Saves `row` with `image` (or with none), deleting the files it replaces after commit."""
    replaced = put_image(row, image)
    row.save()
    delete_replaced(row, replaced)


def _stored_names(row: Illustrated) -> list[str]:
    if row.pk is None:
        return []
    stored = (
        type(row)
        ._default_manager.filter(pk=row.pk)
        .values_list("image", "image_renditions")
        .first()
    )
    if stored is None:
        return []
    image, renditions = stored
    return ([image] if image else []) + stored_names(renditions)


class IllustratedForm(forms.ModelForm[Any]):
    """Refuses an image that is not a sound JPEG, PNG or WebP, or one without a description,
    with a message on the field. An image it accepts is kept, with its renditions, in
    `new_image`; `new_image` stays None when the image is cleared or left as it was."""

    class Meta:
        # A plain file field: Pillow reads the upload only in clean_image, after its size check.
        field_classes = {"image": forms.FileField}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.new_image: CleanImage | None = None
        if "image" in self.fields:
            self.fields["image"].widget.attrs["accept"] = "image/jpeg,image/png,image/webp"

    def clean_image(self) -> Any:
        image = self.cleaned_data["image"]
        if not isinstance(image, UploadedFile):
            return image  # Unchanged, or False when cleared.
        self.new_image = clean_illustration(upload=image, model=self._meta.model)
        # What saving this form directly would store: the re-encoded image, never the upload.
        return self.new_image.as_file()

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or self.cleaned_data
        if "image" in self.fields and "image_alt" in self.fields and "image" not in self.errors:
            image = cleaned.get("image")
            has_image = bool(image) if image is not None else bool(self.instance.image)
            if has_image and not cleaned.get("image_alt", "").strip():
                self.add_error("image_alt", IMAGE_NEEDS_ALT_TEXT)
        return cleaned


class IllustratedAdmin(HistoryAdmin):
    """Stores a new image's renditions with the row and deletes the files it replaces."""

    form = IllustratedForm

    def save_model(self, request: Any, obj: models.Model, form: Any, change: bool) -> None:
        if not isinstance(obj, Illustrated) or "image" not in form.changed_data:
            super().save_model(request, obj, form, change)
            return
        replaced = put_image(obj, getattr(form, "new_image", None))
        super().save_model(request, obj, form, change)
        delete_replaced(obj, replaced)
