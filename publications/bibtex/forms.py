from typing import Any

from django import forms

from publications.bibtex.jobs import reads_in_worker
from publications.bibtex.limits import (
    MAX_BIBTEX_BYTES,
    check_entry_count,
    check_size,
    size_exceeded,
)
from publications.bibtex.reading import Bibliography, Problem, parse_bibtex


class BibtexImportForm(forms.Form):
    """A .bib file or pasted BibTeX, read and parsed (a large one only counted: the worker reads
    it): anything unreadable is a form error."""

    file = forms.FileField(
        label="BibTeX file",
        required=False,
        help_text="A .bib file in UTF-8, at most 2 MB.",
        widget=forms.FileInput(attrs={"accept": ".bib,.bibtex,.txt,text/x-bibtex"}),
    )
    text = forms.CharField(
        label="Or paste BibTeX",
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 12, "cols": 80, "spellcheck": "false"}),
    )

    def clean_file(self) -> str:
        upload = self.cleaned_data.get("file")
        if upload is None:
            return ""
        if upload.size > MAX_BIBTEX_BYTES:
            exceeded = size_exceeded(head=upload.read(MAX_BIBTEX_BYTES), size=upload.size)
            raise forms.ValidationError(str(Problem(exceeded.line, exceeded.key, exceeded.message)))
        try:
            # utf-8-sig: editors on Windows start UTF-8 files with a byte-order mark.
            text: str = upload.read().decode("utf-8-sig")
        except UnicodeDecodeError:
            raise forms.ValidationError(
                "The file is not UTF-8 text. Save it as UTF-8 (or export it as BibTeX again) "
                "and upload it again."
            ) from None
        if "\x00" in text:
            # Pasted text is refused by Django's own check; PostgreSQL could not keep this file
            # for the review at all.
            line = text.count("\n", 0, text.index("\x00")) + 1
            raise forms.ValidationError(
                f"Line {line}: the file contains a NUL character (U+0000), which is not text. "
                "Remove it (or export the file as BibTeX again) and upload it again."
            )
        return text

    def clean_text(self) -> str:
        text: str = self.cleaned_data.get("text", "")
        if exceeded := check_size(text):
            raise forms.ValidationError(str(Problem(exceeded.line, exceeded.key, exceeded.message)))
        return text

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data  # what Form.clean returns
        if self.errors:
            return cleaned
        from_file, pasted = cleaned.get("file", ""), cleaned.get("text", "")
        if from_file and pasted.strip():
            raise forms.ValidationError("Upload a file or paste BibTeX, not both.")
        text = from_file or pasted
        if not text.strip():
            raise forms.ValidationError("Upload a .bib file or paste BibTeX: this was empty.")
        if exceeded := check_entry_count(text):
            raise forms.ValidationError(str(Problem(exceeded.line, exceeded.key, exceeded.message)))
        cleaned["bibtex"] = text
        if reads_in_worker(text):
            cleaned["bibliography"] = None  # read and reviewed in the worker
            return cleaned
        bibliography = parse_bibtex(text)
        if not bibliography.entries and not bibliography.problems:
            raise forms.ValidationError(
                "No BibTeX entry was found. Entries start like “@article{key,”."
            )
        cleaned["bibtex"] = text
        cleaned["bibliography"] = bibliography
        return cleaned

    def bibliography(self) -> Bibliography | None:
        """None for a file too large to read in the request."""
        bibliography: Bibliography | None = self.cleaned_data["bibliography"]
        return bibliography
