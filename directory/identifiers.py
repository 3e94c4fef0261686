"""Identifiers that name a person beyond this site: the ORCID iD.

An ORCID iD ends in a check digit (ISO 7064 MOD 11-2), so a typo is caught when staff save it
rather than published as a link to a stranger's record.
"""

import re

from django import forms
from django.core.exceptions import ValidationError
from django.db import models

ORCID_PATTERN = re.compile(r"^\d{4}-\d{4}-\d{4}-\d{3}[\dX]$")
ORCID_URL = "https://orcid.org/"
ORCID_EXAMPLE = "0000-0002-1825-0097"
# What staff may paste: the iD, or its address as ORCID prints it.
ORCID_PREFIXES = ("https://orcid.org/", "http://orcid.org/", "orcid.org/")


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


def normalize_orcid(value: str) -> str:
    """ "https://orcid.org/0000-0002-1825-009x " → "0000-0002-1825-009X"."""
    value = value.strip()
    for prefix in ORCID_PREFIXES:
        if value.lower().startswith(prefix):
            value = value[len(prefix) :]
            break
    return value.upper()


def orcid_url(orcid: str) -> str:
    return f"{ORCID_URL}{orcid}" if orcid else ""


class OrcidFormField(forms.CharField):
    def to_python(self, value):
        value = super().to_python(value)
        return normalize_orcid(value) if isinstance(value, str) else value


class OrcidField(models.CharField):
    """An ORCID iD, stored bare ("0000-0002-1825-0097"); its address is pasted as well."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("max_length", 19)
        kwargs.setdefault("blank", True)
        kwargs.setdefault("validators", [validate_orcid])
        super().__init__(*args, **kwargs)

    def deconstruct(self):
        name, path, args, kwargs = super().deconstruct()
        kwargs.pop("validators", None)
        return name, path, args, kwargs

    def to_python(self, value):
        value = super().to_python(value)
        return normalize_orcid(value) if isinstance(value, str) else value

    def formfield(self, form_class=None, choices_form_class=None, **kwargs):
        # Room for the address form, which to_python shortens to the bare iD.
        return super().formfield(
            form_class=form_class or OrcidFormField,
            choices_form_class=choices_form_class,
            **{"max_length": len(ORCID_URL) + 19, **kwargs},
        )
