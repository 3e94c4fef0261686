"""What every public list's filters share: plain messages for values that were ignored."""

import django_filters
from django import forms

MAX_SEARCH_LENGTH = 200
MAX_SEARCH_WORDS = 12


class SearchField(forms.CharField):
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


class FilterSet(django_filters.FilterSet):
    """Invalid values are left out of the filtering and reported, never a server error."""

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
