"""Mending rows stored before validation existed (base/validation.py), for the data
migrations of each app: `mend_rows(apps, "publications", ["Publication", ...])`.

What each rule does, and says it did (printed by `migrate`, one line per change, with the value
it had, so nothing is lost from sight):
- control characters are removed from text (line breaks become spaces in one-line fields), and
  so are bidirectional controls, noncharacters and surrogates; one-line text is stored in NFC;
- an identifier (ORCID iD, DOI) is stored in its bare form ("https://doi.org/10.1/x" is
  "10.1/x", a fullwidth "０" is "0"), and cleared when even that form is not one;
- a direction mark (U+200E, U+200F, U+061C) is removed from a name, and a name with no
  visible letter is reported, to fix by hand;
- a row whose mended values would repeat another row's unique value (two forms of one ORCID
  iD) is left as it is and reported, to merge by hand;
- a value its field's validators refuse (a year 0 or 999) is cleared when the field may be
  empty, and reported otherwise;
- text longer than its field (SQLite stores any length) is shortened to fit, ending in "…";
  a web address is never cut: it is cleared when the field may be empty, and a link whose
  address is all it is (PublicationLink, PersonLink) is deleted;
- a name's initial that capitalises to several letters ("ﬁ") is spelled out ("fi").

History rows (django-simple-history's copies) are mended the same way, so reverting to an old
version never brings back what can no longer be saved; they are never deleted.
"""

import unicodedata
from collections.abc import Callable
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, transaction

from base.identifiers import IdentifierField
from base.partial_dates import PartialDateField
from base.validation import (
    BIDI_MARKS,
    forbidden_characters,
    strip_control_characters,
    validate_initials,
    validate_visible_name,
)

ELLIPSIS = "…"


def mend_rows(
    apps: Any, app_label: str, model_names: list[str], *, report: Callable[[str], None] = print
) -> None:
    for name in model_names:
        for model_name in (name, f"Historical{name}"):
            try:
                model = apps.get_model(app_label, model_name)
            except LookupError:
                continue  # a model without history
            _mend_model(model, report=report, history=model_name != name)


def _checked_fields(model: type[models.Model]) -> list[models.Field[Any, Any]]:
    return [
        field
        for field in model._meta.concrete_fields
        if not field.is_relation
        and not field.primary_key
        and not isinstance(field, PartialDateField)
        and (isinstance(field, models.CharField | models.TextField) or field.validators)
    ]


def _mend_model(model: type[models.Model], *, report: Callable[[str], None], history: bool) -> None:
    fields = _checked_fields(model)
    if not fields:
        return
    manager = model._base_manager
    for row in manager.values("pk", *(field.attname for field in fields)).iterator():
        changes: dict[str, object] = {}
        delete = False
        for field in fields:
            value = row[field.attname]
            mended, why = _mend_value(field, value)
            if why == "delete" and not history:
                delete = True
                report(
                    f"{model._meta.label} {row['pk']}: deleted, its {field.name} does not fit: {value!r}"
                )
            elif why and why != "delete":
                changes[field.attname] = mended
                report(
                    f"{model._meta.label} {row['pk']}: {field.name} {why}: {value!r} → {mended!r}"
                )
        if delete:
            manager.filter(pk=row["pk"]).delete()
        elif changes:
            try:
                with transaction.atomic():
                    manager.filter(pk=row["pk"]).update(**changes)
            except IntegrityError:
                # Two rows that differed only in form ("０000-…" and "0000-…") are one value
                # once mended: a unique constraint refuses it, and staff must merge them.
                report(
                    f"{model._meta.label} {row['pk']}: left as it is, fix it by hand: once "
                    f"mended it would repeat another row's value ({changes!r})."
                )


class _Settled(Exception):
    """A text rule's last word on a value: the value to store and why, whatever the other rules
    said ("delete" when only deleting the row would do)."""

    def __init__(self, value: object, why: str) -> None:
        super().__init__(why)
        self.value = value
        self.why = why


def _mend_value(field: models.Field[Any, Any], value: Any) -> tuple[object, str]:
    """The value to store instead and why, or (value, "") when it is fine; "delete" when only
    deleting the row would do."""
    if value is None:
        return value, ""
    why: list[str] = []
    if isinstance(value, str):
        try:
            value = _mend_text(field, value, why)
        except _Settled as settled:
            return settled.value, settled.why
    if value not in (None, "") and not isinstance(field, models.CharField | models.TextField):
        value = _validated_or_cleared(field, value, why)
    return value, "; ".join(why)


def _mend_text(field: models.Field[Any, Any], value: str, why: list[str]) -> str:
    """The text rules in their order, each adding to `why` what it changed."""
    value = _without_controls(field, value, why)
    if isinstance(field, IdentifierField) and value:
        value = _bare_identifier(field, value, why)
    if validate_visible_name in field.validators:
        value = _visible_name(value, why)
    if validate_initials in field.validators and (spelled := _spelled_initials(value)) != value:
        value = spelled
        why.append("had an initial of several letters")
    return _fitted(field, value, why)


def _without_controls(field: models.Field[Any, Any], value: str, why: list[str]) -> str:
    multi_line = isinstance(field, models.TextField)
    stripped = strip_control_characters(value, multi_line=multi_line)
    if stripped != value:
        controls = forbidden_characters(multi_line=multi_line).search(value)
        why.append("had control characters" if controls else "had bidi controls or noncharacters")
    if not multi_line and not unicodedata.is_normalized("NFC", stripped):
        stripped = unicodedata.normalize("NFC", stripped)
        why.append("is stored in NFC")
    return stripped


def _bare_identifier(field: IdentifierField, value: str, why: list[str]) -> str:
    bare: str = field.to_python(value)  # a str given, a str back
    try:
        field.run_validators(bare)
    except ValidationError as error:
        raise _Settled("", f"is cleared: {' '.join(error.messages)}") from error
    if bare != value:
        why.append("is stored in its bare form")
    return bare


def _visible_name(value: str, why: list[str]) -> str:
    if (unmarked := BIDI_MARKS.sub("", value)) != value:
        why.append("had direction marks")
    try:
        validate_visible_name(unmarked)
    except ValidationError as error:
        why.append(f"left as it is, fix it by hand: {' '.join(error.messages)}")
    return unmarked


def _fitted(field: models.Field[Any, Any], value: str, why: list[str]) -> str:
    """Text within its field's length: shortened, ending in "…"; a web address is never cut,
    but cleared where the field may be empty (its row deleted where not)."""
    limit = field.max_length
    if not limit or len(value) <= limit:
        return value
    if not isinstance(field, models.URLField | models.SlugField):
        why.append(f"was longer than {limit} characters")
        return value[: limit - 1].rstrip() + ELLIPSIS
    if not field.blank:
        raise _Settled(value, "delete")
    why.append("was too long for a web address and is cleared")
    return ""


def _validated_or_cleared(field: models.Field[Any, Any], value: object, why: list[str]) -> object:
    """A value its field's validators refuse: cleared where the field may be empty."""
    try:
        field.run_validators(value)
    except ValidationError as error:
        if field.null:
            why.append(f"is cleared: {' '.join(error.messages)}")
            return None
        why.append(f"left as it is, fix it by hand: {' '.join(error.messages)}")
    return value


def _spelled_initials(name: str) -> str:
    words = name.split(" ")
    for index, word in enumerate(words):
        for part_index, part in enumerate(parts := word.split("-")):
            if part and part[0].isalpha() and len(part[0].upper()) != 1:
                parts[part_index] = unicodedata.normalize("NFKC", part[0]) + part[1:]
        words[index] = "-".join(parts)
    return " ".join(words)
