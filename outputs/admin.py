from django.contrib import admin
from django.core.exceptions import ValidationError
from django.db import models

from base.ordered_admin import OrderedRowFormSet, OrderedTabularInline
from base.roles import is_editor, person_of
from base.scoped_admin import MemberScopedAdmin
from outputs import admin_views
from outputs.models import Output, OutputCreator
from publications.admin import researcher_picker


class CreatorFormSet(OrderedRowFormSet):
    """At least one creator, and a member keeps themself among them: they edit only the outputs
    they created, so a save leaving them out would lock them out of their own record."""

    member = None  # set per request by CreatorInline for members

    def clean(self):
        super().clean()
        kept = [
            form.cleaned_data.get("researcher")
            for form in self.forms
            if form not in self.deleted_forms
            and form.is_valid()
            and form.cleaned_data.get("researcher") is not None
        ]
        if not kept:
            raise ValidationError("Name at least one creator: the people who made it.")
        if self.member is not None and self.member.pk not in {researcher.pk for researcher in kept}:
            raise ValidationError(
                "Keep yourself among the creators: you can only edit datasets and software "
                "you made."
            )


class CreatorInline(OrderedTabularInline):
    model = OutputCreator
    formset = CreatorFormSet
    verbose_name_plural = "creators (in order)"
    extra = 1
    fields = ["position", "researcher"]
    # Typed by name, not a select of every researcher (a department has thousands).
    autocomplete_fields = ["researcher"]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("researcher")

    def get_formset(self, request, obj=None, **kwargs):
        formset = super().get_formset(request, obj, **kwargs)
        formset.member = None if is_editor(request.user) else person_of(request.user)
        return formset

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        field = super().formfield_for_dbfield(db_field, request, **kwargs)
        if db_field.name == "researcher":
            return researcher_picker(field, placeholder="Lab member or external person")
        return field


@admin.register(Output)
class OutputAdmin(MemberScopedAdmin):
    list_display = ["title", "kind", "version", "released", "licence", "is_published"]
    list_filter = ["kind", "is_published", "licence"]
    search_fields = ["title", "doi", "creators__researcher__name"]
    search_help_text = "Search by title, creator name or DOI."
    prepopulated_fields = {"slug": ["title"]}
    autocomplete_fields = ["publications", "groups", "areas"]
    fieldsets = [
        (None, {"fields": ["kind", "title", "slug", ("version", "released")]}),
        ("On the site", {"fields": ["is_published"]}),
        ("Details", {"fields": ["licence", "url", "doi", "description"]}),
        ("Related", {"fields": ["publications", "groups", "areas"]}),
    ]
    inlines = [CreatorInline]
    # An address typed without its scheme ("github.com/lab/tool") is https, as elsewhere.
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}

    change_list_template = "admin/outputs/output/change_list.html"

    def member_queryset(self, queryset, person):
        return queryset.by(person)

    def get_urls(self):
        return [*admin_views.urls(self), *super().get_urls()]

    def changelist_view(self, request, extra_context=None):
        extra_context = {
            **(extra_context or {}),
            "can_import": admin_views.can_import(self, request),
        }
        return super().changelist_view(request, extra_context)
