"""What every public list's filters share: one reading of repeated and odd values, and plain
messages for the values that were ignored.

A parameter given twice either combines (venues, types, years, members, search words) or, for a
filter that takes one value, is refused with a notice, so the page never shows a chip for a
value the results ignore. Choices are matched without regard to case everywhere.
"""

from collections.abc import Iterable
from typing import Any

import django_filters
from django import forms
from django.core.exceptions import NON_FIELD_ERRORS
from django.utils.translation import gettext, ngettext
from django_filters import fields as filter_fields

from base.partial_dates import FIRST_YEAR, LAST_YEAR

MAX_SEARCH_LENGTH = 200
MAX_SEARCH_WORDS = 12


class CombinedSearchInput(forms.SearchInput):
    """`?q=cache&q=zhu` searches for both words, as if typed in one box."""

    def value_from_datadict(self, data: Any, files: Any, name: str) -> Any:
        if hasattr(data, "getlist"):
            values = [value for value in data.getlist(name) if value.strip()]
            return " ".join(values) if values else data.get(name)
        return super().value_from_datadict(data, files, name)


class SearchField(forms.CharField):
    widget = CombinedSearchInput
    combines_repeated_values = True

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", MAX_SEARCH_LENGTH)
        super().__init__(**kwargs)

    def clean(self, value: Any) -> Any:
        value = super().clean(value)
        if len(value.split()) > MAX_SEARCH_WORDS:
            raise forms.ValidationError(
                ngettext(
                    "Search with at most %(count)d word.",
                    "Search with at most %(count)d words.",
                    MAX_SEARCH_WORDS,
                )
                % {"count": MAX_SEARCH_WORDS}
            )
        return value


class SearchFilter(django_filters.CharFilter):  # type: ignore[misc]  # django-filter has no types
    field_class = SearchField


def canonical_choice(choices: Iterable[tuple[Any, Any]], value: Any) -> Any:
    """The choice `value` names whatever its case ("nsdi" → "NSDI"); `value` itself when none."""
    wanted = str(value).lower()
    for key, _label in choices:
        if str(key).lower() == wanted:
            return key
    return value


class CaseInsensitiveChoiceField(filter_fields.ChoiceField):  # type: ignore[misc]  # django-filter has no types
    def to_python(self, value: Any) -> Any:
        value = super().to_python(value)
        return canonical_choice(self.choices, value) if value else value


class CaseInsensitiveMultipleChoiceField(filter_fields.MultipleChoiceField):  # type: ignore[misc]  # django-filter has no types
    """Accepts "nsdi" for the choice "NSDI" and hands on the canonical spelling, once."""

    def to_python(self, value: Any) -> list[Any]:
        chosen = [canonical_choice(self.choices, item) for item in super().to_python(value)]
        return list(dict.fromkeys(chosen))


class ChoiceFilter(django_filters.ChoiceFilter):  # type: ignore[misc]  # django-filter has no types
    field_class = CaseInsensitiveChoiceField


class MultipleChoiceFilter(django_filters.MultipleChoiceFilter):  # type: ignore[misc]  # django-filter has no types
    field_class = CaseInsensitiveMultipleChoiceField


class YearField(forms.IntegerField):
    """A whole year within the site's range: "2026.9" is refused, not read as 2026. The number
    input gets the same bounds as its min and max."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", FIRST_YEAR)
        kwargs.setdefault("max_value", LAST_YEAR)
        super().__init__(**kwargs)

    def widget_attrs(self, widget: forms.Widget) -> dict[str, Any]:
        return {**super().widget_attrs(widget), "inputmode": "numeric"}


class YearFilter(django_filters.NumberFilter):  # type: ignore[misc]  # django-filter has no types
    field_class = YearField


class OptionCheckbox(forms.CheckboxInput):
    """A one-choice filter as one checkbox: ticked, it sends the choice's value ("award=1")."""

    def __init__(self, value: str = "1", attrs: dict[str, Any] | None = None) -> None:
        super().__init__(
            attrs={**(attrs or {}), "value": value}, check_test=lambda data: str(data) == value
        )

    def value_from_datadict(self, data: Any, files: Any, name: str) -> Any:
        return data.get(name)


def takes_one_value(field: forms.Field) -> bool:
    return not (
        isinstance(field, forms.MultipleChoiceField)
        or getattr(field, "combines_repeated_values", False)
    )


class FilterForm(forms.Form):
    """Refuses a one-value filter given several different values: a widget would silently read
    the last one while the page showed them all."""

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or self.cleaned_data
        for name, field in self.fields.items():
            if (
                name in self.errors
                or not takes_one_value(field)
                or not hasattr(self.data, "getlist")
            ):
                continue
            values = {value for value in self.data.getlist(name) if value != ""}
            if len(values) > 1:
                self.add_error(name, gettext("It takes one value, and was given several."))
        return cleaned


class FilterSet(django_filters.FilterSet):  # type: ignore[misc]  # django-filter has no types
    """Invalid values are left out of the filtering and reported, never a server error.

    Templates render each control from the form, so its label and bounds are the filter's.
    """

    def get_form_class(self) -> type[forms.Form]:
        form_class: type[forms.Form] = super().get_form_class()
        if issubclass(form_class, FilterForm):
            return form_class
        return type(form_class.__name__, (FilterForm, form_class), {})

    @property
    def form(self) -> Any:  # an instance of the form class made at run time for the filters
        form = super().form
        form.label_suffix = ""
        return form

    def ignored_values(self) -> list[str]:
        """One sentence per parameter that was ignored, the same words on every page, feed and
        export that reads these filters."""
        self.form.is_valid()
        messages = []
        for name, errors in self.form.errors.items():
            if name == NON_FIELD_ERRORS:
                continue
            label = self.filters[name].label if name in self.filters else name
            shown = gettext(", ").join(f"“{shorten(value)}”" for value in self.data.getlist(name))
            messages.append(
                gettext("%(filter)s %(values)s was ignored: %(reasons)s")
                % {"filter": label, "values": shown, "reasons": " ".join(map(str, errors))}
            )
        return messages

    def queryset_without(self, *excluded: str) -> Any:
        """The rows every valid filter but the `excluded` give: what a facet counts (the
        publication list's, the people's, the events')."""
        self.form.is_valid()
        queryset = self.queryset.all()
        for name, value in self.form.cleaned_data.items():
            if name not in excluded and value not in (None, ""):
                queryset = self.filters[name].filter(queryset, value)
        return queryset

    def notices(self) -> list[str]:
        """What the page tells the visitor about how it read the filters: values ignored, and
        values it corrected (a list may add its own corrections)."""
        return self.ignored_values()


def shorten(value: str, length: int = 40) -> str:
    return value if len(value) <= length else f"{value[:length]}…"
