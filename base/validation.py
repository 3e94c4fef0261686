"""The one validation every row passes, whichever way it comes in: the admin's forms, the BibTeX
import, `loaddata` and `seed`, and any later API.

Django runs a model's validation only from `full_clean()`, which forms call and `save()`,
`bulk_create()` and `loaddata` do not. So the rules live on the models (`ValidatedModel`, the
fields' own validators) and a `pre_save` receiver (`base.apps`) runs the same checks for
every other save, raw ones included: a row that would break a page is refused before it is
stored, whatever wrote it. What still skips both is said in the README ("Validation"):
`bulk_create()` (call `validate_rows()` first, as the BibTeX import does), `QuerySet.update()`
and raw SQL.

The rules:
- no control characters in text (Unicode category Cc: C0, DEL and C1), except tab, line feed
  and carriage return in a multi-line field. XML 1.0 cannot carry them, so one U+0001 in a
  title took every feed listing it down; PostgreSQL cannot store NUL at all;
- no bidirectional controls (U+202A–U+202E, U+2066–U+2069: one U+202E in an author's name
  reversed every name after it on the page, in meta tags and exports), no noncharacters
  (U+FDD0–U+FDEF, U+FFFE and U+FFFF of every plane: U+FFFE made the Atom feeds ill-formed XML)
  and no lone surrogates, in any text field;
- one-line text (every CharField: names, titles, venues, slugs, web addresses) is stored in
  NFC, so one name typed with a combining accent and the same name typed precomposed are one;
- a person's name (`validate_visible_name`) has a letter one can see: a name of only zero-width
  spaces, joiners, direction marks, soft hyphens, combining marks or U+2800 drew a blank card;
- years within FIRST_YEAR..LAST_YEAR (base/partial_dates.py), lengths and URLs as each
  field declares them: SQLite stores any length, so only the validation enforces them there;
- Markdown at most MAX_LENGTH characters long and nested at most MAX_NESTING deep, so it renders
  in bounded time, once, at save (base/markdown.py);
- a name whose every word starts with a letter that stays one letter in capitals
  (`validate_initials`): the initials avatar draws two letters, and "ﬁ" or "ŉ" become more.
"""

import re
import unicodedata
from collections.abc import Collection, Iterable
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models

from base.markdown import fill_all_rendered, with_rendered_fields

# Line breaks and tabs are text in a multi-line field; every other control character is not.
MULTI_LINE_ALLOWED = "\t\n\r"
CONTROL_CHARACTERS = re.compile(r"[\x00-\x1f\x7f-\x9f]")
MULTI_LINE_FORBIDDEN = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
LINE_BREAKS = re.compile(r"[\t\n\r]+")


# Embeddings, overrides (U+202A–U+202E) and isolates (U+2066–U+2069): they reorder the text
# after them, past the end of the field, on every page and export showing it.
BIDI_CONTROLS = "\u202a-\u202e\u2066-\u2069"
# Noncharacters: U+FDD0–U+FDEF and the last two code points of each of the 17 planes. No text
# may hold them, and XML 1.0 cannot carry U+FFFE and U+FFFF.
NONCHARACTERS = "\ufdd0-\ufdef" + "".join(
    chr(plane * 0x10000 + last) for plane in range(17) for last in (0xFFFE, 0xFFFF)
)
# Halves of a UTF-16 pair on their own: not text, and neither XML nor PostgreSQL takes them.
SURROGATES = "\ud800-\udfff"
UNSAFE_CHARACTERS = re.compile(f"[{BIDI_CONTROLS}{NONCHARACTERS}{SURROGATES}]")
BIDI_CONTROL = re.compile(f"[{BIDI_CONTROLS}]")
SURROGATE = re.compile(f"[{SURROGATES}]")
# Direction marks: harmless inside a sentence, but in a name they are all a blank name is made of.
BIDI_MARKS = re.compile("[\u200e\u200f\u061c]")
# Letters (Unicode category L) that draw nothing: the Hangul fillers.
INVISIBLE_LETTERS = frozenset("\u115f\u1160\u3164\uffa0")


def forbidden_characters(*, multi_line: bool) -> re.Pattern[str]:
    return MULTI_LINE_FORBIDDEN if multi_line else CONTROL_CHARACTERS


def strip_control_characters(text: str, *, multi_line: bool = False) -> str:
    """The text without the characters `check_text` refuses: what a renderer shows of a row
    stored before the rules existed, and what the data migrations store instead."""
    if not multi_line:
        # A line break or tab in a one-line value is a space, not nothing: "Fast\nCaches".
        text = LINE_BREAKS.sub(" ", text)
    text = forbidden_characters(multi_line=multi_line).sub("", text)
    return UNSAFE_CHARACTERS.sub("", text)


def without_control_characters(value: Any) -> Any:
    """`value` (text, or lists, tuples and dicts of it) with control characters, bidirectional
    controls, noncharacters and surrogates dropped, line breaks kept: for the JSON and XML
    renderers (feeds, JSON-LD, exports) of rows stored before validation."""
    if isinstance(value, str):
        return strip_control_characters(value, multi_line=True)
    if isinstance(value, list | tuple):
        return type(value)(without_control_characters(item) for item in value)
    if isinstance(value, dict):
        return {key: without_control_characters(item) for key, item in value.items()}
    return value


def _where(text: str, match: re.Match[str]) -> tuple[str, str]:
    """The character's code and where it stands, so staff can find a character they cannot
    see: "U+202E", "after “Hang ”"."""
    code = f"U+{ord(match.group()):04X}"
    before = UNSAFE_CHARACTERS.sub("", text[max(0, match.start() - 20) : match.start()])
    return code, f"after “{before}”" if match.start() else "at the start"


def check_text(text: str, *, multi_line: bool) -> None:
    """Refuse a control character, a bidirectional control, a noncharacter or a surrogate,
    naming it and where it is, so staff can find it."""
    if match := forbidden_characters(multi_line=multi_line).search(text):
        code, where = _where(text, match)
        message = f"Remove the control character {code} ({where})."
        if match.group() in MULTI_LINE_ALLOWED:
            message = f"This field is one line: remove the line break or tab ({code}, {where})."
        raise ValidationError(message, code="control_character")
    if match := UNSAFE_CHARACTERS.search(text):
        code, where = _where(text, match)
        if BIDI_CONTROL.match(match.group()):
            message = (
                f"Remove the invisible text-direction character {code} ({where}): it would "
                "reverse the text shown after it, names and titles beside it included."
            )
            raise ValidationError(message, code="bidi_control")
        if SURROGATE.match(match.group()):
            message = f"Remove the broken character {code} ({where}): it is half of a character."
            raise ValidationError(message, code="surrogate")
        message = (
            f"Remove the character {code} ({where}): it is not a letter or sign of any "
            "language (a “noncharacter”), and feeds cannot carry it."
        )
        raise ValidationError(message, code="noncharacter")


def validate_visible_name(name: str) -> None:
    """A name shows at least one letter, and no direction mark (U+200E, U+200F, U+061C).

    Zero-width spaces and joiners, soft hyphens, combining marks and the blank braille pattern
    U+2800 are not letters: a name of only those was stored and drew a blank card and an empty
    link."""
    if match := BIDI_MARKS.search(name):
        code, where = _where(name, match)
        raise ValidationError(
            f"Remove the invisible direction mark {code} ({where}): a name needs none.",
            code="bidi_mark",
        )
    if name and not any(
        unicodedata.category(char).startswith("L") and char not in INVISIBLE_LETTERS
        for char in name
    ):
        raise ValidationError(
            "Write the name in letters: this one has none that can be seen (only spaces, "
            "invisible characters, marks or symbols).",
            code="invisible_name",
        )


def is_multi_line(field: models.Field[Any, Any]) -> bool:
    return isinstance(field, models.TextField)


def text_fields(model: type[models.Model]) -> list[models.Field[Any, Any]]:
    """The fields holding text staff or a file can type into: every CharField and TextField.

    A PartialDateField is a CharField too, whose value is a PartialDate: callers skip values that
    are not strings."""
    return [
        field
        for field in model._meta.concrete_fields
        if isinstance(field, models.CharField | models.TextField)
    ]


def validate_initials(name: str) -> None:
    """Every word's first letter stays one letter in capitals, so initials are two letters.

    "ﬁ" (a ligature PDFs are full of) becomes "FI" and "ŉ" becomes "ʼN"; typing the letters
    ("fi", "n") fixes it."""
    for word in name.replace("-", " ").split():
        first = word[0]
        if first.isalpha() and len(first.upper()) != 1:
            spelled = unicodedata.normalize("NFKC", first)
            hint = f"type “{spelled}” instead" if spelled != first else "type its letters"
            raise ValidationError(
                f"“{word}” starts with “{first}”, one character standing for several letters "
                f"(often copied from a PDF): {hint}.",
                code="initials",
            )


class ValidatedModel(models.Model):
    """A model whose text fields refuse control characters. Every model staff edit is one; a
    system check (base/checks.py) fails for a model with text fields that is not."""

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        # A Markdown field saved alone takes its rendered HTML with it (base/markdown.py).
        if kwargs.get("update_fields") is not None:
            kwargs["update_fields"] = with_rendered_fields(type(self), kwargs["update_fields"])
        super().save(*args, **kwargs)

    def clean_fields(self, exclude: Collection[str] | None = None) -> None:
        self.normalize_text(exclude=exclude)
        errors: dict[str, list[ValidationError]] = {}
        try:
            super().clean_fields(exclude=exclude)
        except ValidationError as error:
            errors = error.update_error_dict(errors)
        for field in text_fields(type(self)):
            value = getattr(self, field.attname)
            if (exclude and field.name in exclude) or not isinstance(value, str):
                continue
            try:
                check_text(value, multi_line=is_multi_line(field))
            except ValidationError as error:
                errors.setdefault(field.name, []).extend(error.error_list)
        if errors:
            raise ValidationError(errors)

    def normalize_text(self, exclude: Collection[str] | None = None) -> None:
        """One-line text in NFC, before any validator (or the uniqueness checks) reads it."""
        for field in text_fields(type(self)):
            value = getattr(self, field.attname)
            if is_multi_line(field) or (exclude and field.name in exclude):
                continue
            if isinstance(value, str) and not unicodedata.is_normalized("NFC", value):
                setattr(self, field.attname, unicodedata.normalize("NFC", value))


def relation_fields(model: type[models.Model]) -> list[str]:
    return [field.name for field in model._meta.concrete_fields if field.is_relation]


def validate_row(instance: models.Model, *, fields: Iterable[str] | None = None) -> None:
    """The field checks of `full_clean()`, without the ones that query the database (related
    rows, uniqueness, constraints): those the database itself enforces, and a fixture may name
    a row that is loaded after this one. `fields` limits the checks to those fields, for a row
    not filled in yet."""
    model = type(instance)
    exclude = set(relation_fields(model))
    if fields is not None:
        exclude |= {field.name for field in model._meta.concrete_fields} - set(fields)
    instance.clean_fields(exclude=exclude)


def validate_rows(instances: Iterable[models.Model]) -> None:
    """`validate_row` for rows about to be written by `bulk_create()`, which sends no signal."""
    for instance in instances:
        validate_row(instance)


def row_problems(instance: models.Model, *, fields: Iterable[str] | None = None) -> list[str]:
    """What `validate_row` would refuse, as sentences naming each field: for a report, like the
    BibTeX import's review, rather than an exception."""
    try:
        validate_row(instance, fields=fields)
    except ValidationError as error:
        return [
            f"{_label(instance, name)}: {' '.join(messages)}"
            for name, messages in error.message_dict.items()
        ]
    return []


def _label(instance: models.Model, name: str) -> str:
    field = next(
        (field for field in type(instance)._meta.concrete_fields if field.name == name), None
    )
    return str(field.verbose_name) if field else name


def refuse_invalid_save(
    sender: type[models.Model], instance: models.Model, raw: bool = False, **kwargs: Any
) -> None:
    """pre_save receiver: every save of a ValidatedModel runs `validate_row`, raw ones (loaddata)
    included, so no way in stores what a page cannot show, and fills each Markdown field's
    rendered HTML (base/markdown.py)."""
    if isinstance(instance, ValidatedModel):
        validate_row(instance)
        # Markdown rendered here, once per save, so no page view renders it; raw saves too,
        # which skip the fields' own pre_save.
        fill_all_rendered(instance)
