from django import forms
from django.core.files.uploadedfile import UploadedFile

from people import photos
from people.models import Person


class PersonForm(forms.ModelForm):
    """Refuses a photo that is not a sound JPEG, PNG or WebP, with a message saying why.

    A photo it accepts is kept in `new_photo`, re-encoded, for photos.save_photo; `new_photo`
    stays None when the photo is cleared or left as it was.
    """

    class Meta:
        model = Person
        # The admin adds the fields of its fieldsets to these, the ones this form handles.
        fields = ["photo", "photo_alt"]
        # A plain file field: Pillow reads the upload only in clean_photo, after its size check.
        field_classes = {"photo": forms.FileField}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.new_photo: photos.CleanPhoto | None = None
        if "photo" in self.fields:
            self.fields["photo"].widget.attrs["accept"] = "image/jpeg,image/png,image/webp"

    def clean_user(self):
        """A switched-off login cannot sign in whatever it is given (people.services
        .let_login_edit_profile gives the rest)."""
        user = self.cleaned_data["user"]
        if user is not None and not user.is_active:
            raise forms.ValidationError(
                f"The login “{user}” is switched off, so it cannot sign in: tick “Active” on "
                "it under Users first, or choose another login."
            )
        return user

    def clean_photo(self):
        photo = self.cleaned_data["photo"]
        if not isinstance(photo, UploadedFile):
            return photo  # Unchanged, or False when cleared.
        self.new_photo = photos.clean_photo(upload=photo)
        # What the alt text constraint sees, and what saving this form directly would store:
        # the re-encoded photo under its generated name, never the upload.
        return self.new_photo.as_file()
