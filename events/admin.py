import zoneinfo

from django import forms
from django.contrib import admin
from django.db import models
from django.utils import timezone

from base.roles import is_editor, person_of
from base.scoped_admin import MemberScopedAdmin
from events.models import Event, known_time_zones
from publications.admin import researcher_picker


def https_urls(field, **kwargs):
    """An address typed without a scheme is read as https://, as everywhere in the admin."""
    if isinstance(field, models.URLField):
        kwargs["assume_scheme"] = "https"
    return field.formfield(**kwargs)


# Entered and shown as the event's wall-clock time, in its own time zone.
TIMES = ("starts_at", "ends_at")


class EventForm(forms.ModelForm):
    """Staff type the times as the event's poster prints them, in the event's time zone (a
    talk at 14:00 in Paris is 14:00 Europe/Paris, whatever the site's zone): the form reads and
    shows them in that zone, and the row stores the moment."""

    class Meta:
        model = Event
        formfield_callback = https_urls
        fields = [
            *("title", "slug", "kind", "speaker", "event_name", "starts_at", "ends_at"),
            *("time_zone", "place", "description", "slides_url", "video_url", "publications"),
            *("group", "is_published"),
        ]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in TIMES:
            value = getattr(self.instance, name, None)
            if value is not None:
                # Naive, so the field shows it as it is, not moved to the site's zone.
                self.initial[name] = timezone.make_naive(value, self.instance.zone)

    def clean(self):
        cleaned = super().clean() or {}
        if cleaned.get("time_zone") in known_time_zones():
            zone = zoneinfo.ZoneInfo(cleaned["time_zone"])
            for name in TIMES:
                if (value := cleaned.get(name)) is not None:
                    cleaned[name] = timezone.make_aware(timezone.make_naive(value), zone)
        return cleaned


@admin.register(Event)
class EventAdmin(MemberScopedAdmin):
    """Editors edit every talk and event; a member adds and edits the talks they give
    (base/scoped_admin.py), which wait as drafts for an editor as their papers do."""

    waiting_noun = "talk"
    waiting_nouns = "talks"
    form = EventForm
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}
    list_display = ["title", "kind", "speaker", "starts_at", "is_published"]
    # The first filter, "review", lists members' talks waiting for an editor.
    list_filter = ["kind", "is_published", ("group", admin.RelatedOnlyFieldListFilter)]
    list_select_related = ["speaker"]
    search_fields = ["title", "event_name", "speaker__name", "place"]
    search_help_text = "Search by title, event, speaker or place."
    date_hierarchy = "starts_at"
    prepopulated_fields = {"slug": ["title"]}
    # The speaker typed by name, not a select of every researcher (a department has thousands).
    autocomplete_fields = ["speaker", "group", "publications"]
    fieldsets = [
        (None, {"fields": ["title", "slug", "kind", "speaker", "event_name"]}),
        ("When and where", {"fields": [("starts_at", "ends_at"), "time_zone", "place"]}),
        ("Details", {"fields": ["description", "slides_url", "video_url", "publications"]}),
        ("On the site", {"fields": ["group", "is_published"]}),
    ]

    def member_queryset(self, queryset, person):
        return queryset.given_by(person)

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        field = super().formfield_for_dbfield(db_field, request, **kwargs)
        if db_field.name == "speaker":
            return researcher_picker(field, placeholder="Lab member or external person")
        return field

    def get_readonly_fields(self, request, obj=None):
        readonly = super().get_readonly_fields(request, obj)
        if is_editor(request.user):
            return readonly
        # A member's talks are theirs: the speaker is the member; a group's events are the
        # group's to list.
        return [*readonly, "speaker", "group"]

    def save_model(self, request, obj, form, change):
        person = person_of(request.user)
        if not is_editor(request.user) and person is not None and not change:
            obj.speaker_id = person.pk
        super().save_model(request, obj, form, change)
