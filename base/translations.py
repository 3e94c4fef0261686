"""Texts staff give in another language beside the original (a bio, a paper's title, a news
item), shown to readers of that language and falling back to the original.

Each translated field is a plain column beside the original on the same table, named
`<field>_<language>` (`title_zh_hans`; a Markdown field's rendered companion is
`<companion>_<language>`, `bio_html_zh_hans`). The original attribute always holds the
original: exports, citation keys, the search text's first words, the history and the values
kept for both languages read it as before. Only pages ask for the reader's language, through
`shown()` and the `translated` / `lang_of` template tags (base/templatetags/translations.py).
docs/decisions/translated-fields.md says why this is not django-modeltranslation or
django-parler.
"""

import re
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import get_language

from base.markdown import MarkdownField

# CJK ideographs (the unified block and its extension A, and the compatibility ideographs) and
# Latin letters, counted to tell an original written in Chinese from one written in English.
HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
LATIN = re.compile(r"[A-Za-z]")
TAG = re.compile(r"<[^>]*>")


def written_in_chinese(text: str) -> bool:
    """Whether a text (or a rendered Markdown field's HTML) is mostly Chinese: at least one
    ideograph for every four Latin letters, as a word is an ideograph or two but five letters.
    An English bio naming a cat "瓜皮" is English; "基于 GPU 的缓存" is Chinese."""
    words = TAG.sub("", text)
    ideographs = len(HAN.findall(words))
    return ideographs > 0 and 4 * ideographs >= len(LATIN.findall(words))


# The names staff read in the admin beside each translated column: "Title (Chinese)".
LANGUAGE_LABELS = {"zh-hans": "Chinese"}


def translated_languages() -> list[str]:
    """The languages a field may be translated into: every site language but the original's."""
    return [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]


def translation_name(field: str, language: str) -> str:
    """The column holding `field` in `language`: `title_zh_hans`."""
    return f"{field}_{language.replace('-', '_').lower()}"


def translation_label(label: str, language: str) -> str:
    """A translated column's label for staff: "title (Chinese)" (the admin capitalizes it)."""
    return f"{label} ({LANGUAGE_LABELS.get(language, language)})"


@dataclass(frozen=True)
class Shown:
    """A field's text as a page in one language shows it: `text` (the translation, else the
    original; a rendered Markdown field's HTML stays safe), and `lang`, the language to mark
    it with when it is not the page's ("" when it is)."""

    text: Any
    lang: str


def shown(instance: models.Model, field: str, language: str | None = None) -> Shown:
    """`field` of `instance` for a reader of `language` (the active one unless given).

    The translation when staff gave one (not blank), else the original. The original's
    language is not recorded: the site's originals are written in its own language (English),
    so an original shown on another language's page is marked as English, unless it is
    mostly written in CJK ideographs (`written_in_chinese`), when it is left unmarked."""
    language = language or get_language() or settings.LANGUAGE_CODE
    original = getattr(instance, field) or ""
    if language == settings.LANGUAGE_CODE:
        return Shown(original, "")
    translation = getattr(instance, translation_name(field, language), None)
    if translation and str(translation).strip():
        return Shown(translation, "")
    if original and not written_in_chinese(str(original)):
        return Shown(original, settings.LANGUAGE_CODE)
    return Shown(original, "")


TRANSLATION_HELP = (
    "Shown to readers of the {language} pages; leave empty to show them the original."
)


def text_translation(
    label: str, *, max_length: int, language: str = "zh-hans"
) -> "models.CharField[str, str]":
    """A column for a one-line text in `language`, beside its original: optional."""
    return models.CharField(
        translation_label(label, language),
        max_length=max_length,
        blank=True,
        help_text=TRANSLATION_HELP.format(language=LANGUAGE_LABELS.get(language, language)),
    )


def markdown_translation(label: str, *, language: str = "zh-hans") -> MarkdownField:
    """A column for a Markdown text in `language`, beside its original: optional. Give it its
    rendered companion, `RenderedMarkdownField(source=<this column>)`, as the original has."""
    return MarkdownField(
        translation_label(label, language),
        blank=True,
        help_text=TRANSLATION_HELP.format(language=LANGUAGE_LABELS.get(language, language))
        + " Markdown.",
    )
