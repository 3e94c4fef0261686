from django.contrib import admin
from django.db import models

from base.ordered_admin import CreditRowFormSet, CreditRowInline
from base.scoped_admin import MemberScopedAdmin
from outputs import admin_views
from outputs.models import Output, OutputCreator
from publications.admin import researcher_picker


class CreatorFormSet(CreditRowFormSet):
    none_left = "Name at least one creator: the people who made it."
    member_left_out = (
        "Keep yourself among the creators: you can only edit datasets and software you made."
    )


class CreatorInline(CreditRowInline):
    model = OutputCreator
    formset = CreatorFormSet
    verbose_name_plural = "creators (in order)"
    fields = ["position", "researcher"]

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        field = super().formfield_for_dbfield(db_field, request, **kwargs)
        if db_field.name == "researcher":
            return researcher_picker(field, placeholder="Lab member or external person")
        return field


@admin.register(Output)
class OutputAdmin(MemberScopedAdmin):
    # What a member adds waits as a draft for an editor, as their papers and talks do; the
    # first filter, "review", lists it (base/scoped_admin.py).
    waiting_noun = "dataset or software"
    waiting_nouns = "datasets and software"
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
