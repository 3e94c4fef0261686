from typing import Any

from django import forms

from publications.bibtex.reading import Bibliography
from publications.identifiers.documents import MAX_DOCUMENT_BYTES, Unreadable, too_large
from publications.identifiers.fetching import Fetch
from publications.identifiers.gathering import FORMATS, gather, read_export
from publications.identifiers.pasted import recognise


class IdentifierImportForm(forms.Form):
    """Identifiers pasted one a line, or a file a service exported, read into entries: a line
    that is no identifier, an identifier no service knows, or a file that cannot be read is a
    form error, in a sentence."""

    identifiers = forms.CharField(
        label="DOIs, arXiv ids, an ORCID iD, a dblp person key or an OpenAlex author id",
        required=False,
        help_text="One a line, e.g. 10.1145/3544216.3544265, 2101.00001, 0000-0002-1825-0097, "
        "s/MichaelStonebraker or A5023888391. An ORCID iD, dblp key or OpenAlex author id "
        "brings all of that person's works.",
        widget=forms.Textarea(attrs={"rows": 8, "cols": 60, "spellcheck": "false"}),
    )
    file = forms.FileField(
        label="Or upload what a service exports",
        required=False,
        help_text=f"{FORMATS[0].upper()}{FORMATS[1:]}; at most "
        f"{MAX_DOCUMENT_BYTES // (1024 * 1024)} MB.",
        widget=forms.FileInput(attrs={"accept": ".json,.xml,.atom,application/json,text/xml"}),
    )

    def __init__(self, *args: Any, fetch: Fetch, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fetch = fetch
        self.late: list[str] = []

    def clean_file(self) -> Bibliography | None:
        upload = self.cleaned_data.get("file")
        if upload is None:
            return None
        if upload.size > MAX_DOCUMENT_BYTES:
            raise forms.ValidationError(too_large(upload.size, what="The file"))
        try:
            return read_export(upload.read(), name="The file")
        except Unreadable as unreadable:
            raise forms.ValidationError(str(unreadable)) from None

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        if self.errors:
            return cleaned
        from_file: Bibliography | None = cleaned.get("file")
        pasted: str = cleaned.get("identifiers", "")
        if from_file is not None and pasted.strip():
            raise forms.ValidationError("Paste identifiers or upload a file, not both.")
        if from_file is not None:
            cleaned["bibliography"] = from_file
            return cleaned
        identifiers, refused = recognise(pasted)
        if refused:
            self.add_error("identifiers", refused)
            return cleaned
        if not identifiers:
            raise forms.ValidationError("Paste identifiers or upload a file: this was empty.")
        gathered = gather(identifiers, fetch=self.fetch)
        if gathered.problems and not (gathered.works and gathered.only_late):
            self.add_error("identifiers", gathered.problems)
            return cleaned
        # Lines not asked as the paste's time was up: what came is reviewed, and these are said.
        self.late = gathered.late
        cleaned["bibliography"] = gathered.bibliography()
        return cleaned

    def bibliography(self) -> Bibliography:
        bibliography: Bibliography = self.cleaned_data["bibliography"]
        return bibliography
