"""Inlines of ordered rows (base.models.OrderedRow): authors, awards, links, CV entries.

Staff order rows by dragging them, or by the keyboard (static/lab-admin/js/ordered-rows.js,
on SortableJS); without JavaScript they type a row's place. Whatever arrives, the server
decides the order: rows are sorted by the place asked for (rows left blank go last), then
numbered 1, 2, 3… so places never need typing and never clash.

A parent with hundreds of rows (a paper with 5,000 authors) is shown a page of rows at a
time: the other rows keep their order around the page, and a row can be sent to any place,
on this page or another, by typing it.
"""

from collections import defaultdict
from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.admin.options import InlineModelAdmin
from django.core.exceptions import ValidationError
from django.core.paginator import InvalidPage, Paginator
from django.db import models
from django.forms.models import BaseInlineFormSet
from django.http import HttpRequest

from base.roles import is_editor, person_of

# Rows shown at once: rendering a row of the admin takes about 15 ms, so a page of 50 opens
# in about a second however long the list is (benchmarks/admin_authors.py measures it).
ROWS_PER_PAGE = 50
POSITION_MAX = 32767  # PositiveSmallIntegerField
UPDATE_BATCH = 900  # ids per UPDATE, well within SQLite's limit on query parameters
# Its styles are in lab-admin/css/admin.css, which every admin page loads.
ORDERED_ROWS_MEDIA = forms.Media(
    js=["lab-admin/vendor/sortable/Sortable.min.js", "lab-admin/js/ordered-rows.js"],
)


class OrderedRowForm(forms.ModelForm[Any]):
    """The place of a row is a wish the formset turns into a position, never an error."""

    position = forms.IntegerField(
        label="Place",
        required=False,
        min_value=1,
        max_value=POSITION_MAX,
        help_text="Numbered for you when you drag a row; type a number to move the row there.",
        widget=forms.NumberInput(attrs={"class": "ordered-rows__place", "min": 1}),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # A row of a table has no <label>s: each box is named by its column, for screen
        # readers and for a phone, where the row is shown without the table's head.
        for field in self.fields.values():
            field.widget.attrs.setdefault("aria-label", str(field.label))
            if isinstance(field.widget, forms.TextInput | forms.URLInput):
                field.widget.attrs.setdefault("placeholder", str(field.label))

    def has_changed(self) -> bool:
        """An empty extra row whose place was numbered by the script is still empty."""
        return any(name != "position" for name in self.changed_data)

    def _get_validation_exclusions(self) -> set[str]:
        # Two rows may ask for the same place (or take each other's): the formset numbers
        # them, so the unique (parent, position) constraint is checked on what it saves.
        return {*super()._get_validation_exclusions(), "position"}  # type: ignore[misc]


class OrderedRowFormSet(BaseInlineFormSet[Any, Any, Any]):
    """Saves rows in the order asked for and numbers them; shows one page of a long list.

    `page_number` is set per request by the inline (from `?<prefix>-page=N`).
    """

    page_number: str | int = 1

    def get_queryset(self) -> Any:
        if not hasattr(self, "_queryset"):
            queryset = super().get_queryset().order_by("position", "pk")
            self.paginator = Paginator(queryset, ROWS_PER_PAGE, allow_empty_first_page=True)
            try:
                self.page = self.paginator.page(self.page_number)
            except InvalidPage:
                self.page = self.paginator.page(1)
            self._queryset = queryset if self.paginator.num_pages == 1 else self.page.object_list
        return self._queryset

    @property
    def is_paginated(self) -> bool:
        self.get_queryset()
        return self.paginator.num_pages > 1

    def page_links(self) -> list[dict[str, Any]]:
        """The pages of a long list, for templates/admin/edit_inline/ordered_*.html."""
        self.get_queryset()
        links = []
        for number in self.paginator.page_range:
            first = (number - 1) * ROWS_PER_PAGE + 1
            last = min(number * ROWS_PER_PAGE, self.paginator.count)
            links.append(
                {
                    "number": number,
                    "label": f"{first}–{last}",
                    "query": f"?{self.prefix}-page={number}",
                    "current": number == self.page.number,
                }
            )
        return links

    def save(self, commit: bool = True) -> list[Any]:
        """Deletes, saves and numbers the rows in one pass; positions move in two steps so
        that no two rows hold one place, even for a moment (the unique constraint)."""
        if not commit:
            return super().save(commit=False)
        super().save(commit=False)  # fills new_objects, changed_objects, deleted_objects
        for deleted in self.deleted_objects:
            deleted.delete()
        rows = self.model._default_manager.filter(**{self.fk.name: self.instance})
        stored = dict(rows.values_list("pk", "position"))
        kept = self._kept_rows()
        on_page = {id(instance) for _, instance in kept}
        by_pk = {instance.pk: instance for _, instance in kept if instance.pk is not None}
        # A row asked to be elsewhere is taken out and put at its place; every other row, on
        # this page or not, keeps its order.
        moved = [
            (place, order, instance)
            for order, (place, instance) in enumerate(kept)
            if instance.pk is None or place != stored.get(instance.pk)
        ]
        moved_ids = {id(instance) for _, _, instance in moved}
        final = [
            by_pk.get(pk) or self.model(pk=pk, position=position)
            for pk, position in sorted(stored.items(), key=lambda item: (item[1], item[0]))
        ]
        final = [row for row in final if id(row) not in moved_ids]
        for place, _, instance in sorted(moved, key=lambda wish: wish[:2]):
            final.insert(min(place - 1, len(final)), instance)
        moving = {
            row.pk
            for number, row in enumerate(final, start=1)
            if row.pk is not None and stored.get(row.pk) != number
        }
        if moving:
            # Out of the way first, above every place in use (positions are kept 1…n, so this
            # stays within a small integer up to 16,000 rows).
            offset = max(max(stored.values()), len(final)) + 1
            moving_pks = sorted(moving)
            for start in range(0, len(moving_pks), UPDATE_BATCH):
                rows.filter(pk__in=moving_pks[start : start + UPDATE_BATCH]).update(
                    position=models.F("position") + offset
                )
        changed = {id(instance) for instance in self.new_objects} | {
            id(instance) for instance, _ in self.changed_objects
        }
        others = []
        for number, row in enumerate(final, start=1):
            is_moving = row.pk in moving
            row.position = number
            if id(row) in on_page and (is_moving or id(row) in changed or row.pk is None):
                row.save()
            elif is_moving:
                others.append(row)
        # Rows of other pages move by whole blocks (all after a moved row, one place down):
        # one UPDATE per distance, not one per row.
        by_distance = defaultdict(list)
        for row in others:
            by_distance[row.position - stored[row.pk]].append(row.pk)
        for distance, pks in by_distance.items():
            for start in range(0, len(pks), UPDATE_BATCH):
                rows.filter(pk__in=pks[start : start + UPDATE_BATCH]).update(
                    position=models.F("position") + distance - offset
                )
        self.save_m2m()
        return [*self.new_objects, *(instance for instance, _ in self.changed_objects)]

    def _kept_rows(self) -> list[tuple[int, Any]]:
        """(place asked for, row) of each row kept on this page, in the page's order. A row
        without a place goes after the page's last row."""
        kept = [
            form
            for index, form in enumerate(self.forms)
            if form not in self.deleted_forms
            and (index < self.initial_form_count() or form.has_changed())
        ]
        asked = [form.cleaned_data.get("position") for form in kept]
        last = max([place for place in asked if place], default=self.first_place() - 1)
        rows = []
        for form, place in zip(kept, asked, strict=True):
            if not place:
                last += 1
                place = last
            rows.append((place, form.instance))
        return rows

    def first_place(self) -> int:
        """The place of the page's first row: the script numbers rows from it."""
        self.get_queryset()
        return (self.page.number - 1) * ROWS_PER_PAGE + 1 if self.is_paginated else 1


class OrderedInline(InlineModelAdmin[Any, Any]):
    """An inline of OrderedRows, ordered by dragging, by the keyboard, or by typed places.
    List "position" first in its fields: it is the row's place."""

    form = OrderedRowForm
    formset = OrderedRowFormSet
    ordering = ["position"]
    extra = 0

    def get_formset(self, request: HttpRequest, obj: Any = None, **kwargs: Any) -> Any:
        formset = super().get_formset(request, obj, **kwargs)
        formset.page_number = request.GET.get(f"{formset.get_default_prefix()}-page", 1)  # type: ignore[attr-defined]
        return formset

    @property
    def media(self) -> forms.Media:
        return super().media + ORDERED_ROWS_MEDIA


class OrderedTabularInline(OrderedInline, admin.TabularInline[Any, Any]):
    template = "admin/edit_inline/ordered_tabular.html"


class OrderedStackedInline(OrderedInline, admin.StackedInline[Any, Any]):
    template = "admin/edit_inline/ordered_stacked.html"


class CreditRowFormSet(OrderedRowFormSet):
    """The ordered rows crediting researchers (an output's creators, a project's people): at
    least one, and a member keeps themself among them: they edit only the records they are
    credited in, so a save leaving them out would lock them out of their own record. A
    subclass says both in its own words."""

    member: Any = None  # set per request by CreditRowInline for members
    none_left = "Name at least one person."
    member_left_out = "Keep yourself among the people: you can only edit what you take part in."

    def clean(self) -> None:
        super().clean()
        kept = [
            form.cleaned_data.get("researcher")
            for form in self.forms
            if form not in self.deleted_forms
            and form.is_valid()
            and form.cleaned_data.get("researcher") is not None
        ]
        if not kept:
            raise ValidationError(self.none_left)
        if self.member is not None and self.member.pk not in {researcher.pk for researcher in kept}:
            raise ValidationError(self.member_left_out)


class CreditRowInline(OrderedTabularInline):
    """The inline of a CreditRowFormSet: tells it which member is editing (none for editors)."""

    formset = CreditRowFormSet
    extra = 1
    # Researchers are many (every author ever imported): picked by name, never a full select.
    autocomplete_fields = ["researcher"]

    def get_queryset(self, request: HttpRequest) -> models.QuerySet[Any]:
        return super().get_queryset(request).select_related("researcher")

    def get_formset(self, request: HttpRequest, obj: Any = None, **kwargs: Any) -> Any:
        formset = super().get_formset(request, obj, **kwargs)
        formset.member = None if is_editor(request.user) else person_of(request.user)
        return formset
