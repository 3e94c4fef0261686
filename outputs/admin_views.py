"""The admin's import of datasets and software: upload a DataCite, Zenodo or CITATION.cff file,
or paste DOIs whose records DataCite gives (outputs/fetching.py), review what each record would
do, leave some out, confirm. Nothing is written before the
confirmation; the file (or the records fetched, as one DataCite file) travels back with the
review form (it is at most MAX_FILE_BYTES) and is read and reviewed again on confirmation,
without fetching again, so what is saved is what the site holds then. An update applies the
changes the editor saw (signed with the file), refused if the site changed one of them since."""

import base64
import binascii

from django import forms
from django.contrib import admin, messages
from django.contrib.auth.models import User
from django.core import signing
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, reverse

from base.admin_site import model_admin_page
from base.roles import is_editor
from outputs.fetching import FETCHED, MAX_DOIS, dois_in, fetch_records
from outputs.formats import MAX_FILE_BYTES, ReadOutput, read_outputs
from outputs.importing import (
    OutputReview,
    ReviewedChanges,
    SiteChanged,
    import_outputs,
    review_outputs,
)
from outputs.models import Output
from publications.identifiers.documents import Unreadable

OutputModelAdmin = admin.ModelAdmin[Output]

# The review's choice for new records: published at once (as an editor's imported papers are)
# unless the editor keeps them as drafts.
KEEP_AS_DRAFTS = "drafts"
# The changes each update showed (field, value on the site then) travel signed with the file:
# the confirmation applies those, not what a review at confirmation time would find.
REVIEWED_SALT = "outputs.import.reviewed"


class OutputImportForm(forms.Form):
    file = forms.FileField(
        label="File",
        help_text=(
            "A DataCite record (JSON from api.datacite.org/dois/…), a Zenodo record (JSON from "
            "zenodo.org/api/records/…) or a CITATION.cff file; at most "
            f"{MAX_FILE_BYTES // (1024 * 1024)} MB."
        ),
        widget=forms.FileInput(attrs={"accept": ".json,.cff,.yaml,.yml,application/json"}),
    )

    def clean_file(self) -> bytes:
        upload = self.cleaned_data["file"]
        data: bytes = upload.read(MAX_FILE_BYTES + 1)
        try:
            self.records = read_outputs(data, name="The file")
        except Unreadable as unreadable:
            raise forms.ValidationError(str(unreadable)) from None
        return data


class OutputDoiForm(forms.Form):
    dois = forms.CharField(
        label="DOIs",
        max_length=10_000,
        widget=forms.Textarea(attrs={"rows": 4, "cols": 60}),
        help_text=(
            "One a line, e.g. 10.5281/zenodo.1234567 (Zenodo's DOIs too): each record is "
            f"fetched from DataCite; at most {MAX_DOIS} at a time."
        ),
    )

    def clean_dois(self) -> bytes:
        """The records fetched, as one DataCite file the review reads as an upload; `late`
        names the DOIs not asked in time (outputs/fetching.py's TOTAL_SECONDS)."""
        try:
            fetched = fetch_records(dois_in(self.cleaned_data["dois"]))
            self.records = read_outputs(fetched.data, name=FETCHED)
        except Unreadable as unreadable:
            raise forms.ValidationError(str(unreadable)) from None
        self.late = fetched.late_sentence()
        return fetched.data


def urls(model_admin: OutputModelAdmin) -> list[URLPattern]:
    return [
        model_admin_page(model_admin, "import/", import_outputs_view, name="outputs_output_import")
    ]


def can_import(model_admin: OutputModelAdmin, request: HttpRequest) -> bool:
    """Editors only, as for papers: an import creates records that may be anybody's."""
    return is_editor(request.user) and model_admin.has_add_permission(request)


def import_outputs_view(model_admin: OutputModelAdmin, request: HttpRequest) -> HttpResponse:
    if not can_import(model_admin, request):
        raise PermissionDenied
    if request.method == "POST" and "confirm" in request.POST:
        return _confirm(model_admin, request)
    by_doi = request.method == "POST" and "dois" in request.POST
    form = OutputImportForm(
        None if by_doi else (request.POST or None), None if by_doi else (request.FILES or None)
    )
    doi_form = OutputDoiForm(request.POST if by_doi else None)
    for bound, field in ((form, "file"), (doi_form, "dois")):
        if bound.is_bound and bound.is_valid():
            review = review_outputs(outputs=bound.records)
            return _render_review(
                model_admin,
                request,
                review,
                data=bound.cleaned_data[field],
                late=getattr(bound, "late", ""),
            )
    context = {
        **model_admin.admin_site.each_context(request),
        "opts": model_admin.opts,
        "title": "Import datasets and software",
        "form": form,
        "doi_form": doi_form,
    }
    status = 400 if form.is_bound or doi_form.is_bound else 200
    return TemplateResponse(request, "admin/outputs/import.html", context, status=status)


def _confirm(model_admin: OutputModelAdmin, request: HttpRequest) -> HttpResponse:
    document = _document(request.POST.get("document", ""))
    if document is None:
        messages.error(request, "The reviewed file did not come back whole: upload it again.")
        return redirect(reverse("admin:outputs_output_import"))
    data, records, reviewed = document
    review = review_outputs(outputs=records)
    left_out = set(request.POST.getlist("leave_out"))
    ticked = set(request.POST.getlist("apply"))
    chosen = [key for key in review.importable_keys if key not in left_out]
    chosen += [key for key in review.update_keys if key in ticked]
    editor = request.user if isinstance(request.user, User) else None  # an editor: signed in
    publish = request.POST.get("publish") != KEEP_AS_DRAFTS
    try:
        saved = import_outputs(
            review=review, chosen=chosen, user=editor, publish=publish, reviewed=reviewed
        )
    except SiteChanged as changed:
        # Someone added an output or a person the file names between this review and the save,
        # or changed a field an update showed.
        # The review shown again sees the new row.
        messages.error(request, f"{changed} Here is the review again, as the site stands now.")
        again = review_outputs(outputs=records)
        return _render_review(model_admin, request, again, data=data, status=400)
    messages.success(request, _saved_sentence(saved, updates=set(review.update_keys) & ticked))
    return redirect(reverse("admin:outputs_output_changelist"))


def _saved_sentence(saved: list[Output], *, updates: set[str]) -> str:
    updated = len(updates)
    added = len(saved) - updated
    if not saved:
        return "Nothing was imported."
    parts = []
    if added:
        parts.append(
            f"Imported {added} record{'s' if added != 1 else ''} of datasets and software."
        )
    if updated:
        parts.append(f"Updated {updated} output{'s' if updated != 1 else ''} on the site.")
    return " ".join(parts)


def _document(document: str) -> tuple[bytes, list[ReadOutput], ReviewedChanges] | None:
    """The file the review form sent back, its records, and the changes each update showed;
    None if it did not come back whole."""
    encoded, _, signed = document.partition(".")
    try:
        data = base64.b64decode(encoded.encode("ascii"), validate=True)
        shown = signing.Signer(salt=REVIEWED_SALT).unsign_object(signed)
        reviewed = {
            str(key): [(str(field), str(old)) for field, old in changes]
            for key, changes in shown.items()
        }
        return data, read_outputs(data, name="The file"), reviewed
    except (binascii.Error, UnicodeEncodeError, Unreadable, signing.BadSignature):
        return None
    except (AttributeError, TypeError, ValueError):  # signed, but not as _render_review signs
        return None


def _document_for(data: bytes, review: OutputReview) -> str:
    """The file, and the changes each update shows (signed), as the review form sends them."""
    shown = {
        item.key: [(change.field, change.old) for change in item.changes]
        for item in review.outputs
        if item.is_update
    }
    signed = signing.Signer(salt=REVIEWED_SALT).sign_object(shown)
    return f"{base64.b64encode(data).decode('ascii')}.{signed}"


def _render_review(
    model_admin: OutputModelAdmin,
    request: HttpRequest,
    review: OutputReview,
    *,
    data: bytes,
    status: int = 200,
    late: str = "",
) -> HttpResponse:
    context = {
        **model_admin.admin_site.each_context(request),
        "opts": model_admin.opts,
        "title": "Review the import of datasets and software",
        "review": review,
        "document": _document_for(data, review),
        "late": late,
        "keep_as_drafts": KEEP_AS_DRAFTS,
    }
    return TemplateResponse(request, "admin/outputs/import_review.html", context, status=status)
