from django.contrib import admin
from django.db import models

from publications.models import Authorship, Publication, PublicationAward, PublicationLink, Venue
from publications.services import link_authors_to_members


@admin.register(Venue)
class VenueAdmin(admin.ModelAdmin):
    list_display = ["short_name", "full_name", "kind"]
    list_filter = ["kind"]
    search_fields = ["short_name", "full_name"]


class AuthorshipInline(admin.TabularInline):
    model = Authorship
    extra = 1
    fields = ["position", "name", "person", "equal_contribution"]
    autocomplete_fields = ["person"]
    ordering = ["position"]


class AwardInline(admin.TabularInline):
    model = PublicationAward
    extra = 0
    fields = ["position", "name"]


class LinkInline(admin.TabularInline):
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}
    model = PublicationLink
    extra = 0
    fields = ["position", "kind", "url", "label"]


class HasAwardFilter(admin.SimpleListFilter):
    title = "award"
    parameter_name = "has_award"

    def lookups(self, request, model_admin):
        return [("yes", "Has an award"), ("no", "No award")]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.filter(awards__isnull=False).distinct()
        if self.value() == "no":
            return queryset.filter(awards__isnull=True)
        return queryset


@admin.register(Publication)
class PublicationAdmin(admin.ModelAdmin):
    list_display = ["title", "venue", "year", "type", "status", "is_featured", "is_published"]
    list_filter = ["venue", "year", "type", "status", HasAwardFilter, "is_featured", "is_published"]
    list_select_related = ["venue"]
    search_fields = ["title", "authorships__name", "doi"]
    search_help_text = "Search by title, author name or DOI."
    prepopulated_fields = {"slug": ["title"]}
    autocomplete_fields = ["venue"]
    fieldsets = [
        (None, {"fields": ["title", "slug", ("venue", "year"), ("type", "status")]}),
        ("On the site", {"fields": ["is_published", "is_featured"]}),
        ("Details", {"fields": ["doi", "abstract"]}),
    ]
    inlines = [AuthorshipInline, AwardInline, LinkInline]

    def save_formset(self, request, form, formset, change):
        super().save_formset(request, form, formset, change)
        if formset.model is Authorship:
            linked = link_authors_to_members(form.instance.authorships.filter(person=None))
            for authorship in linked:
                self.message_user(
                    request, f"Linked author “{authorship.name}” to the member {authorship.person}."
                )
