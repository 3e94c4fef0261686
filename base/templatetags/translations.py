"""The reader's language of a translated field (base/translations.py): `{{ paper|translated:"title" }}`
for its text (also inside attributes), `{% lang_of paper "title" %}` inside the tag that holds
it, which says ` lang="en"` when the text is the original on another language's page."""

from typing import Any

from django import template
from django.db import models
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from base.translations import shown

register = template.Library()


@register.filter
def translated(instance: models.Model | str | None, field: str) -> Any:
    """The field's text in the active language, or the original."""
    if not isinstance(instance, models.Model):  # a missing object: the template's ""
        return ""
    return shown(instance, field).text


@register.simple_tag
def lang_of(instance: models.Model | str | None, field: str) -> SafeString:
    """` lang="en"` when the field's text shown is not in the page's language, else nothing."""
    if not isinstance(instance, models.Model):
        return mark_safe("")
    lang = shown(instance, field).lang
    return format_html(' lang="{}"', lang) if lang else mark_safe("")
