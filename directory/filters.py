"""What every public list's filters share: plain messages for values that were ignored."""

import django_filters
from django import forms

from directory.partial_dates import FIRST_YEAR, LAST_YEAR

MAX_SEARCH_LENGTH = 200
MAX_SEARCH_WORDS = 12


class SearchField(forms.CharField):
    widget = forms.SearchInput

    def __init__(self, **kwargs):
        kwargs.setdefault("max_length", MAX_SEARCH_LENGTH)
        super().__init__(**kwargs)

    def clean(self, value):
        value = super().clean(value)
        if len(value.split()) > MAX_SEARCH_WORDS:
            raise forms.ValidationError(f"Search with at most {MAX_SEARCH_WORDS} words.")
        return value


class SearchFilter(django_filters.CharFilter):
    field_class = SearchField


class YearField(forms.IntegerField):
    """A whole year within the site's range: "2026.9" is refused, not read as 2026. The number
    input gets the same bounds as its min and max."""

    def __init__(self, **kwargs):
        kwargs.setdefault("min_value", FIRST_YEAR)
        kwargs.setdefault("max_value", LAST_YEAR)
        super().__init__(**kwargs)

    def widget_attrs(self, widget):
        return {**super().widget_attrs(widget), "inputmode": "numeric"}


class YearFilter(django_filters.NumberFilter):
    field_class = YearField


class OptionCheckbox(forms.CheckboxInput):
    """A one-choice filter as one checkbox: ticked, it sends the choice's value ("award=1")."""

    def __init__(self, value: str = "1", attrs=None):
        super().__init__(
            attrs={**(attrs or {}), "value": value}, check_test=lambda data: str(data) == value
        )

    def value_from_datadict(self, data, files, name):
        return data.get(name)


class FilterSet(django_filters.FilterSet):
    """Invalid values are left out of the filtering and reported, never a server error.

    Templates render each control from the form, so its label and bounds are the filter's.
    """

    @property
    def form(self):
        form = super().form
        form.label_suffix = ""
        return form

    def ignored_values(self) -> list[str]:
        self.form.is_valid()
        messages = []
        for name, errors in self.form.errors.items():
            label = self.filters[name].label if name in self.filters else name
            shown = ", ".join(f"“{shorten(value)}”" for value in self.data.getlist(name))
            messages.append(f"{label} {shown} was ignored: {' '.join(errors)}")
        return messages


def shorten(value: str, length: int = 40) -> str:
    return value if len(value) <= length else f"{value[:length]}…"
