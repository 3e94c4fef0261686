from typing import Any

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django import forms
from django.contrib import admin
from django.core.files.base import ContentFile
from django.core.files.uploadedfile import UploadedFile
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect

from base import identity
from base.history import HistoryAdmin
from base.models import Lab

# Each text beside its Chinese translation (base/translations.py), on one row of the form.
WORDS_ROWS: list[str | tuple[str, ...]] = [
    "name",
    ("tagline", "tagline_zh_hans"),
    "institution",
    ("about", "about_zh_hans"),
]
WORDS_FIELDS = [name for row in WORDS_ROWS for name in ((row,) if isinstance(row, str) else row)]
PUBLICATION_FIELDS = ["show_citation_counts"]
LOOK_FIELDS = [
    "logo",
    "logo_dark",
    "accent_colour",
    "accent_colour_dark",
    "banner",
    "banner_alt",
    "type_scale",
]


class LabForm(forms.ModelForm[Lab]):
    """Keeps a logo or banner only as base.identity cleaned it, never the upload itself."""

    class Meta:
        model = Lab
        fields = [*WORDS_FIELDS, *LOOK_FIELDS, *PUBLICATION_FIELDS]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in ("logo", "logo_dark"):
            if name in self.fields:
                self.fields[name].widget.attrs["accept"] = (
                    ".svg,image/svg+xml,image/png,image/jpeg,image/webp"
                )
        if "banner" in self.fields:
            self.fields["banner"].widget.attrs["accept"] = "image/jpeg,image/png,image/webp"

    @staticmethod
    def _cleaned_logo(upload: Any) -> Any:
        if not isinstance(upload, UploadedFile):
            return upload  # Unchanged, or False when cleared.
        logo = identity.clean_logo(upload=upload)
        return ContentFile(logo.content, name=logo.name)

    def clean_logo(self) -> Any:
        return self._cleaned_logo(self.cleaned_data["logo"])

    def clean_logo_dark(self) -> Any:
        return self._cleaned_logo(self.cleaned_data["logo_dark"])

    def clean_banner(self) -> Any:
        banner = self.cleaned_data["banner"]
        if not isinstance(banner, UploadedFile):
            return banner
        return identity.clean_banner(upload=banner)


@admin.register(Lab)
class LabAdmin(HistoryAdmin):
    """One row: the list opens straight to its form, and it cannot be deleted."""

    form = LabForm
    fieldsets = [
        (None, {"fields": WORDS_ROWS}),
        (
            "Look",
            {
                "fields": LOOK_FIELDS,
                "description": (
                    "The site's identity: the header, the admin, the API documentation, the CV "
                    "and the preview image of shared links all take it. Icons for browser tabs "
                    "are made from the logo."
                ),
            },
        ),
        ("Publications", {"fields": PUBLICATION_FIELDS}),
    ]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return not Lab.objects.exists()

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        if not self.has_view_or_change_permission(request):
            return super().changelist_view(request, extra_context)
        return redirect("admin:directory_lab_change", Lab.objects.current().pk)

    def save_model(self, request: HttpRequest, obj: Lab, form: Any, change: bool) -> None:
        obj.pk = 1
        if {"logo", "accent_colour", "name"} & set(form.changed_data):
            identity.store_favicons(obj)
        super().save_model(request, obj, form, change)


class SuperusersOnly(admin.ModelAdmin[Any]):
    """Who failed to sign in, from where: for the site's administrators, not for editors."""

    def has_module_permission(self, request: HttpRequest) -> bool:
        return request.user.is_superuser

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.is_superuser and super().has_view_permission(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.is_superuser and super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return request.user.is_superuser and super().has_delete_permission(request, obj)


for model in (AccessAttempt, AccessLog, AccessFailureLog):
    if admin.site.is_registered(model):
        axes_admin = type(admin.site.get_model_admin(model))
        admin.site.unregister(model)
        admin.site.register(model, type(axes_admin.__name__, (SuperusersOnly, axes_admin), {}))
