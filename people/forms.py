from django import forms
from django.core.files.uploadedfile import UploadedFile

from people import photos
from people.models import ExternalPerson, Person
from people.names import normalize_name
from people.services import aliases_taken


class AliasesForm(forms.ModelForm):
    """Refuses an alias another member or external person goes by, naming them. Only the
    aliases this save adds are checked: those already saved were accepted before."""

    def clean_aliases(self):
        aliases = self.cleaned_data["aliases"]
        saved = self.instance.name_keys() if self.instance.pk is not None else set()
        added = [line for line in aliases.splitlines() if normalize_name(line) not in saved]
        if refusals := aliases_taken(aliases=added, record=self.instance):
            raise forms.ValidationError(refusals)
        return aliases


class ExternalPersonForm(AliasesForm):
    class Meta:
        model = ExternalPerson
        # The admin adds the fields of its fieldsets to this one, which the form checks.
        fields = ["aliases"]


class PersonForm(AliasesForm):
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

    # Editors only (PersonAdmin shows it to them alone, and acts on it for them alone).
    accept_pending_aliases = forms.BooleanField(
        label="Accept the aliases waiting",
        required=False,
        help_text="Moves the aliases waiting for an editor (above) to the aliases, which link "
        "publications to this person.",
    )

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

    def clean(self):
        cleaned = super().clean() or self.cleaned_data
        if cleaned.get("accept_pending_aliases") and "pending_aliases" in cleaned:
            waiting = cleaned["pending_aliases"].splitlines()
            if refusals := aliases_taken(aliases=waiting, record=self.instance):
                self.add_error("pending_aliases", refusals)
        return cleaned

    def clean_photo(self):
        photo = self.cleaned_data["photo"]
        if not isinstance(photo, UploadedFile):
            return photo  # Unchanged, or False when cleared.
        self.new_photo = photos.clean_photo(upload=photo)
        # What the alt text constraint sees, and what saving this form directly would store:
        # the re-encoded photo under its generated name, never the upload.
        return self.new_photo.as_file()
