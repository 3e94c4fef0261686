"""Identifiers that name a person or a paper beyond this site: the ORCID iD, the DOI and the
arXiv id.

Each is stored bare and normalised from the forms people paste: compatibility characters
spelled out first (NFKC: a fullwidth "０" from an East Asian keyboard is "0", before the check
digit and before the "another profile has this iD" check read it), then the address or "doi:"
prefix removed. Only then is it validated.

An ORCID iD ends in a check digit (ISO 7064 MOD 11-2), so a typo is caught when staff save it
rather than published as a link to a stranger's record. A DOI is "10." and a registrant code of
digits, a slash and a suffix: "not a doi" or "javascript:alert(1)" never becomes a link.
"""

import re
import unicodedata
from collections.abc import Callable
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.db import models

ORCID_PATTERN = re.compile(r"^\d{4}-\d{4}-\d{4}-\d{3}[\dX]$", re.ASCII)
ORCID_URL = "https://orcid.org/"
ORCID_EXAMPLE = "0000-0002-1825-0097"
# What stands before the iD where people copy it from: its address (http or https, with or
# without "www."), or a label ("ORCID:", "ORCID iD") as CVs and papers print it.
ORCID_PREFIX = re.compile(
    r"^(?:(?:https?://)?(?:www\.)?orcid\.org/|orcid(?:\s*id)?\s*:?)\s*", re.IGNORECASE
)


def orcid_check_digit(digits: str) -> str:
    """ISO 7064 MOD 11-2 over the first 15 digits: "X" stands for 10."""
    total = 0
    for digit in digits:
        total = (total + int(digit)) * 2
    check = (12 - total % 11) % 11
    return "X" if check == 10 else str(check)


def validate_orcid(value: str) -> None:
    if not ORCID_PATTERN.match(value):
        raise ValidationError(
            f"Write an ORCID iD as four groups of four, e.g. “{ORCID_EXAMPLE}”.", code="invalid"
        )
    if orcid_check_digit(value.replace("-", "")[:-1]) != value[-1]:
        raise ValidationError(
            f"“{value}” is not an ORCID iD: its last character (the check digit) does not "
            "match the others. Copy it again from the person's ORCID record.",
            code="checksum",
        )


def _without_prefix(value: str, prefixes: tuple[str, ...]) -> str:
    value = unicodedata.normalize("NFKC", value).strip()
    for prefix in prefixes:
        if value.lower().startswith(prefix):
            return value[len(prefix) :].strip()
    return value


def normalize_orcid(value: str) -> str:
    """ "https://orcid.org/０000-0002-1825-009x/ ", "ORCID: 0000-…" → "0000-0002-1825-009X".

    The one reading of a pasted iD: every form, the admin, fixtures and seed (through
    OrcidField) and the imports (publications/identifiers) call it, so an iD one accepts the
    others accept too."""
    value = ORCID_PREFIX.sub("", unicodedata.normalize("NFKC", value).strip(), count=1)
    return value.rstrip("/").strip().upper()


def clean_orcid(value: str) -> str:
    """The bare iD `value` names, check digit verified; ValidationError saying why if none."""
    orcid = normalize_orcid(value)
    validate_orcid(orcid)
    return orcid


def orcid_url(orcid: str) -> str:
    return f"{ORCID_URL}{orcid}" if orcid else ""


DOI_PATTERN = re.compile(r"^10\.\d{4,9}/\S+$", re.ASCII)
DOI_URL = "https://doi.org/"
DOI_EXAMPLE = "10.1145/3544216.3544265"
# What staff paste and BibTeX files hold: the DOI, its address (old and new), or "doi:10.…".
DOI_PREFIXES = (
    "https://doi.org/",
    "http://doi.org/",
    "https://dx.doi.org/",
    "http://dx.doi.org/",
    "doi.org/",
    "dx.doi.org/",
    "doi:",
)


def normalize_doi(value: str) -> str:
    """ "https://doi.org/10.1145/3544216.3544265", "doi: 10.1145/…" → "10.1145/…"."""
    return _without_prefix(value, DOI_PREFIXES)


def validate_doi(value: str) -> None:
    if not DOI_PATTERN.match(value):
        raise ValidationError(
            f"“{value}” is not a DOI: a DOI starts with “10.”, a number and a slash, "
            f"e.g. “{DOI_EXAMPLE}”.",
            code="invalid",
        )


class NormalizedFormField(forms.CharField):
    """A form field handing its text to the model field's normalisation before validation."""

    def __init__(self, *, normalize: Callable[[str], str], **kwargs: Any) -> None:
        self.normalize = normalize
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> Any:
        value = super().to_python(value)
        return self.normalize(value) if isinstance(value, str) else value


class IdentifierField(models.CharField[Any, Any]):
    """A CharField stored bare and normalised (`normalize`) before its validators run, on every
    save (base/validation.py runs `clean_fields`) and in every form."""

    normalize = staticmethod(lambda value: value)
    validator: Any = None
    # Room in forms for the address form, which `normalize` shortens.
    pasted_extra = 0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("blank", True)
        kwargs.setdefault("validators", [self.validator])
        super().__init__(*args, **kwargs)

    def deconstruct(self) -> Any:
        name, path, args, kwargs = super().deconstruct()
        kwargs.pop("validators", None)
        return name, path, args, kwargs

    def to_python(self, value: Any) -> Any:
        value = super().to_python(value)
        return type(self).normalize(value) if isinstance(value, str) else value

    def formfield(
        self, form_class: Any = None, choices_form_class: Any = None, **kwargs: Any
    ) -> Any:
        return super().formfield(
            form_class=form_class or NormalizedFormField,
            choices_form_class=choices_form_class,
            **{
                "max_length": (self.max_length or 0) + self.pasted_extra,
                "normalize": type(self).normalize,
                **kwargs,
            },
        )


class DoiField(IdentifierField):
    """A DOI, stored bare ("10.1145/3544216.3544265"); its address is pasted as well."""

    normalize = staticmethod(normalize_doi)
    validator = staticmethod(validate_doi)
    pasted_extra = len("https://dx.doi.org/")


class OrcidField(IdentifierField):
    """An ORCID iD, stored bare ("0000-0002-1825-0097"); its address is pasted as well."""

    normalize = staticmethod(normalize_orcid)
    validator = staticmethod(validate_orcid)
    # Room for "https://www.orcid.org/", a trailing slash and spaces around.
    pasted_extra = len("https://www.orcid.org/") + 8

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 19)
        super().__init__(*args, **kwargs)


# "1412.6980", "1412.6980v9", "arXiv:2101.00001", "hep-th/9901001", "math.GT/0309136v2".
ARXIV_ID = re.compile(
    r"^(?:arxiv:\s*)?(?P<id>\d{4}\.\d{4,5}|[a-z]+(?:-[a-z]+)*(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?$",
    re.IGNORECASE,
)
# Where an arXiv paper is named by address: its abs/ and pdf/ pages, and arXiv's own DOIs.
ARXIV_IN_URL = re.compile(
    r"arxiv\.org/(?:abs|pdf)/(?P<id>[\w./-]+?)(?:v\d+)?(?:\.pdf)?/?$|"
    r"10\.48550/arxiv\.(?P<doi_id>[\w./-]+?)(?:v\d+)?$",
    re.IGNORECASE,
)
ARXIV_ABS = "https://arxiv.org/abs/"
ARXIV_PDF = "https://arxiv.org/pdf/"


def arxiv_id(text: str) -> str:
    """The arXiv id in an id or an address, without its version; "" when there is none.
    Papers are told apart by it whatever version a link names."""
    text = text.strip()
    if found := ARXIV_ID.match(text):
        return found["id"]
    if found := ARXIV_IN_URL.search(text):
        return found["id"] or found["doi_id"] or ""
    return ""
