"""Talks given by the lab's people and the lab's own events (seminars, defences, reading
groups), each at an aware date and time shown in the event's own time zone."""

import datetime
import zoneinfo
from functools import cache

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.functions import ExtractYear
from django.utils import timezone
from django.utils.translation import gettext_lazy

from base.history_records import SiteHistoricalRecords
from base.markdown import MarkdownField, RenderedMarkdownField
from base.models import PublicPage, page_slug
from base.querysets import PublishableQuerySet
from people.models import Person, Researcher, ResearchGroup, published_profile
from publications.models import Publication


@cache
def known_time_zones() -> frozenset[str]:
    """The IANA names zoneinfo can load here ("Europe/Paris"), read once per process."""
    return frozenset(zoneinfo.available_timezones())


def validate_time_zone(name: str) -> None:
    if name not in known_time_zones():
        raise ValidationError(
            f"“{name[:60]}” is not a time zone this site knows. Write a place's time zone "
            "as “Europe/Paris” or “America/New_York”, or “UTC”."
        )


class EventQuerySet(PublishableQuerySet):
    def for_listing(self) -> "EventQuerySet":
        """The speaker (and their profile's slug, for the link) and the group in the same
        query: one entry names both."""
        return self.select_related("speaker__profile", "group")

    def drafts_of(self, person: Person) -> models.Q:
        """A member previews the drafts of the talks they give."""
        return models.Q(speaker_id=person.pk)

    def upcoming(self, now: datetime.datetime | None = None) -> "EventQuerySet":
        """Not over yet, soonest first: an event under way is still upcoming."""
        return self.filter(ends_at__gt=now or timezone.now()).order_by("starts_at", "slug")

    def past(self, now: datetime.datetime | None = None) -> "EventQuerySet":
        """Over, newest first."""
        return self.filter(ends_at__lte=now or timezone.now()).order_by("-starts_at", "slug")

    def given_by(self, researcher: Researcher) -> "EventQuerySet":
        """The talks and events `researcher` (a member's Person or an outside Researcher)
        speaks at."""
        return self.filter(speaker_id=researcher.pk)

    def of_group(self, group: ResearchGroup | models.QuerySet[ResearchGroup]) -> "EventQuerySet":
        """The events of the research group (`group` a ResearchGroup or a queryset of them)."""
        if isinstance(group, ResearchGroup):
            return self.filter(group=group)
        return self.filter(group__in=group)

    def in_year(self, year: int) -> "EventQuerySet":
        return self.filter(starts_at__year=year)

    def related_to(self, publication: Publication) -> "EventQuerySet":
        """The talks and events staff linked to the paper `publication`."""
        return self.filter(publications=publication)

    def next_change(self, now: datetime.datetime | None = None) -> datetime.datetime | None:
        """When the soonest upcoming event is over and moves to the past: until then a list
        of these rows stays true. One query (the `event_ends_at` index)."""
        found = self.filter(ends_at__gt=now or timezone.now()).aggregate(
            soonest=models.Min("ends_at")
        )
        soonest: datetime.datetime | None = found["soonest"]
        return soonest

    def years(self) -> "models.QuerySet[Event, int]":
        """The distinct years, newest first, in one query."""
        years: models.QuerySet[Event, int] = (
            self.annotate(year=ExtractYear("starts_at"))
            .order_by("-year")
            .values_list("year", flat=True)
            .distinct()
        )
        return years


class Event(PublicPage):
    """A talk by one of the lab's people (at a conference, another lab) or an event the lab
    holds. One model for both: they have the same time, place, speaker and links, and one list
    shows them together, upcoming and past apart."""

    url_name = "events:detail"

    class Kind(models.TextChoices):
        TALK = "talk", gettext_lazy("Talk")
        SEMINAR = "seminar", gettext_lazy("Seminar")
        DEFENCE = "defence", gettext_lazy("Thesis defence")
        READING_GROUP = "reading-group", gettext_lazy("Reading group")
        OTHER = "other", gettext_lazy("Other event")

    title = models.CharField(max_length=300, help_text="The talk's or the event's title.")
    slug = page_slug("The event's address: /events/slug/.")
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.TALK)
    speaker = models.ForeignKey(
        Researcher,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="events",
        help_text="Who speaks: a member, or an outside person (add a guest under External "
        "people first). Empty for an event without one speaker.",
    )
    event_name = models.CharField(
        "event",
        max_length=300,
        blank=True,
        help_text='Where a talk is given, e.g. "NSDI 2026" or "Systems seminar, ETH Zürich".',
    )
    place = models.CharField(
        max_length=300, blank=True, help_text='e.g. "Room 4.12, Gates Building" or "Online".'
    )
    starts_at = models.DateTimeField(
        "starts", help_text="Date and time in the event's own time zone (below)."
    )
    ends_at = models.DateTimeField(
        "ends", help_text="Date and time in the event's own time zone; after the start."
    )
    time_zone = models.CharField(
        max_length=64,
        default="UTC",
        validators=[validate_time_zone],
        help_text='Where the event takes place, e.g. "Europe/Paris": its times are shown in it.',
    )
    description = MarkdownField(blank=True, help_text="Abstract or details. Markdown.")
    description_html = RenderedMarkdownField(source="description")
    slides_url = models.URLField("slides", max_length=500, blank=True)
    video_url = models.URLField("video", max_length=500, blank=True)
    group = models.ForeignKey(
        ResearchGroup,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="events",
        help_text="The research group that holds it, if one does: listed on the group's page.",
    )
    publications = models.ManyToManyField(
        Publication,
        blank=True,
        related_name="events",
        help_text="The papers the talk presents.",
    )

    objects = EventQuerySet.as_manager()
    history = SiteHistoricalRecords(
        m2m_fields=["publications"], excluded_fields=["description_html"]
    )

    class Meta:
        # Newest first, the slug last so events of one time keep one order page after page.
        ordering = ["-starts_at", "slug"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends_at__gt=models.F("starts_at")),
                name="event_ends_after_start",
                violation_error_message="The end must be after the start.",
            )
        ]
        indexes = [
            # Upcoming and past are split on the end (EventQuerySet.upcoming, next_change).
            models.Index(fields=["ends_at"], name="event_ends_at"),
            # The lists' order, and the year filter.
            models.Index(fields=["-starts_at", "slug"], name="event_starts_desc"),
        ]

    def __str__(self) -> str:
        return self.title

    def cache_scopes(self) -> set[str]:
        """What a write of an event may change (base/caches.py): whole pages (the site's stamp
        moves with every write) and the kept parts of a paper's page, which list its talks and
        follow this scope; no kept part of a person's page."""
        return {"events"}

    def clean(self) -> None:
        super().clean()
        if self.starts_at and self.ends_at and self.ends_at <= self.starts_at:
            raise ValidationError({"ends_at": "The end must be after the start."})

    @property
    def zone(self) -> zoneinfo.ZoneInfo:
        """The event's time zone; UTC for a name this machine's zoneinfo lacks (a row stored
        before validation), so a page never fails on it."""
        try:
            return zoneinfo.ZoneInfo(self.time_zone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            return zoneinfo.ZoneInfo("UTC")

    @property
    def local_start(self) -> datetime.datetime:
        return self.starts_at.astimezone(self.zone)

    @property
    def local_end(self) -> datetime.datetime:
        return self.ends_at.astimezone(self.zone)

    @property
    def start_attribute(self) -> str:
        """The local start as a <time datetime> attribute takes it: whole seconds, since HTML
        allows at most three digits of a fraction and a stored time may carry six (one saved
        through the API or the shell rather than the admin's minutes)."""
        return self.local_start.isoformat(timespec="seconds")

    @property
    def end_attribute(self) -> str:
        """The local end, as start_attribute."""
        return self.local_end.isoformat(timespec="seconds")

    @property
    def speaker_profile(self) -> Person | None:
        """The speaker's profile when they are a published member: their name links to it.
        Reads what for_listing() selected."""
        return published_profile(self.speaker)

    def is_over(self, now: datetime.datetime | None = None) -> bool:
        return self.ends_at <= (now or timezone.now())

    def links(self) -> list[tuple[str, str]]:
        """The slides and the video, as (label, address), where given."""
        found = [("Slides", self.slides_url), ("Video", self.video_url)]
        return [(label, url) for label, url in found if url]

    @property
    def ends_same_day(self) -> bool:
        return self.local_start.date() == self.local_end.date()
