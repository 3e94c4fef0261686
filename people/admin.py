from django.contrib import admin
from django.db import models
from django.db.models import Count
from django.utils.html import format_html

from people.models import (
    Award,
    Education,
    Experience,
    Person,
    PersonLink,
    RoleGroup,
    Service,
    Teaching,
)


@admin.register(RoleGroup)
class RoleGroupAdmin(admin.ModelAdmin):
    list_display = ["name", "position", "is_alumni", "member_count"]
    list_editable = ["position", "is_alumni"]
    prepopulated_fields = {"slug": ["name"]}

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(member_count=Count("people"))

    @admin.display(description="members", ordering="member_count")
    def member_count(self, group):
        return group.member_count


class EntryInline(admin.StackedInline):
    extra = 0
    classes = ["collapse"]


class PeriodInline(EntryInline):
    fields = [("position", "start", "end", "is_current")]


class EducationInline(PeriodInline):
    model = Education
    fields = [*PeriodInline.fields, ("degree", "field"), "institution", "details"]


class ExperienceInline(PeriodInline):
    model = Experience
    fields = [*PeriodInline.fields, ("title", "organization"), "location", "description"]


class TeachingInline(admin.TabularInline):
    model = Teaching
    extra = 0
    fields = ["position", "role", "course", "institution", "term"]


class ServiceInline(admin.TabularInline):
    model = Service
    extra = 0
    fields = ["position", "role", "details", "date"]


class AwardInline(admin.TabularInline):
    model = Award
    extra = 0
    fields = ["position", "title", "details", "date"]


class PersonLinkInline(admin.TabularInline):
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}
    model = PersonLink
    extra = 0
    fields = ["position", "kind", "url", "label"]


@admin.register(Person)
class PersonAdmin(admin.ModelAdmin):
    list_display = ["thumbnail", "name", "position_title", "role_group", "is_published"]
    list_display_links = ["thumbnail", "name"]
    list_filter = ["role_group", "is_published"]
    list_select_related = ["role_group"]
    search_fields = ["name", "aliases", "research_interests"]
    prepopulated_fields = {"slug": ["name"]}
    readonly_fields = ["thumbnail"]
    fieldsets = [
        (None, {"fields": ["name", "slug", "role_group", "position_title", "is_published"]}),
        ("Contact and affiliation", {"fields": ["affiliations", "email"]}),
        ("About", {"fields": ["short_bio", "bio", "research_interests"]}),
        ("Photo", {"fields": ["thumbnail", "photo", "photo_alt"]}),
        ("Recognising the person in author lists", {"fields": ["aliases"]}),
    ]
    inlines = [
        PersonLinkInline,
        EducationInline,
        ExperienceInline,
        TeachingInline,
        ServiceInline,
        AwardInline,
    ]

    @admin.display(description="photo")
    def thumbnail(self, person):
        if not person.photo:
            return "—"
        return format_html(
            '<img src="{}" alt="{}" width="64">',
            person.photo.url,
            person.photo_alt,
        )
