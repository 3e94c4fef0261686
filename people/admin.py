from django.contrib import admin
from django.db import models
from django.db.models import Count
from django.utils.html import format_html

from directory.history import HistoryAdmin
from directory.roles import is_editor
from directory.scoped_admin import MemberScopedAdmin
from people import photos
from people.forms import PersonForm
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
class RoleGroupAdmin(HistoryAdmin):
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
class PersonAdmin(MemberScopedAdmin):
    form = PersonForm
    list_display = ["thumbnail", "name", "position_title", "role_group", "is_published"]
    list_display_links = ["thumbnail", "name"]
    list_filter = ["role_group", "is_published"]
    list_select_related = ["role_group"]
    search_fields = ["name", "aliases", "research_interests"]
    prepopulated_fields = {"slug": ["name"]}
    readonly_fields = ["thumbnail"]
    fieldsets = [
        (None, {"fields": ["name", "slug", "role_group", "position_title", "is_published"]}),
        ("Login", {"fields": ["user"]}),
        ("Contact and affiliation", {"fields": ["affiliations", "email", "orcid"]}),
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

    autocomplete_fields = ["user"]

    def member_queryset(self, queryset, person):
        return queryset.filter(pk=person.pk)

    def get_readonly_fields(self, request, obj=None):
        readonly = super().get_readonly_fields(request, obj)
        if is_editor(request.user):
            return readonly
        # Who is linked to which login, and where a person is listed, are editors' decisions.
        return [*readonly, "user", "role_group", "slug"]

    def get_prepopulated_fields(self, request, obj=None):
        return super().get_prepopulated_fields(request, obj) if is_editor(request.user) else {}

    def has_add_permission(self, request):
        return is_editor(request.user) and super().has_add_permission(request)

    def save_model(self, request, person, form, change):
        if change and not is_editor(request.user):
            # Whatever form posted this, only editors set these.
            saved = Person.objects.get(pk=person.pk)
            person.user_id, person.role_group_id, person.slug = (
                saved.user_id,
                saved.role_group_id,
                saved.slug,
            )
        if "photo" in form.changed_data:
            photos.save_photo(person=person, photo=form.new_photo)
        else:
            super().save_model(request, person, form, change)

    @admin.display(description="photo")
    def thumbnail(self, person):
        if not person.photo:
            return "—"
        return format_html(
            '<img src="{}" alt="{}" width="64">',
            person.thumbnail_url,
            person.photo_alt,
        )
