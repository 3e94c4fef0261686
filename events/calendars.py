"""Talks and events as iCalendar (RFC 5545), written by the `icalendar` package: the site's
calendar, a person's, a group's, and one event's "Add to calendar" file.

Each event keeps its own time zone: DTSTART and DTEND carry its TZID, and the calendar holds a
VTIMEZONE for each zone used (from zoneinfo), so a calendar application shows 14:00 Paris time
as 14:00 in Paris and converts it for a reader elsewhere. Its UID is the row's id under the
site's host, so a reader who subscribed sees an edited event change, not a second one.
DTSTAMP is when the row last changed (its history), so the same rows give the same file.
"""

import datetime
from collections.abc import Iterable

import icalendar
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from events.models import Event
from publications.feeds import FilteredFeed

CONTENT_TYPE = "text/calendar; charset=utf-8"
# The newest events a subscribed calendar holds: the upcoming ones and a year or two of past.
CALENDAR_EVENTS = 200


def with_change_time(queryset):
    """The events, each with `changed_at` (FilteredFeed.with_change_time): their DTSTAMP."""
    return FilteredFeed.with_change_time(queryset)


def uid(event: Event, request: HttpRequest) -> str:
    return f"event-{event.pk}@{request.get_host().partition(':')[0]}"


def calendar_event(event: Event, request: HttpRequest) -> icalendar.Event:
    entry = icalendar.Event()
    entry.add("uid", uid(event, request))
    stamp = getattr(event, "changed_at", None) or timezone.now()
    entry.add("dtstamp", stamp.astimezone(datetime.UTC))
    entry.add("dtstart", event.local_start)
    entry.add("dtend", event.local_end)
    entry.add("summary", event.title)
    entry.add("url", request.build_absolute_uri(event.get_absolute_url()))
    if place := ", ".join(part for part in (event.place, event.event_name) if part):
        entry.add("location", place)
    entry.add("categories", [event.get_kind_display()])
    lines = []
    if event.speaker is not None:
        lines.append(f"Speaker: {event.speaker.name}")
    if event.description.strip():
        lines.append(event.description.strip())
    lines += [f"{label}: {url}" for label, url in event.links()]
    if lines:
        entry.add("description", "\n\n".join(lines))
    return entry


def calendar(events: Iterable[Event], *, name: str, request: HttpRequest) -> icalendar.Calendar:
    found = icalendar.Calendar()
    found.add("prodid", f"-//{request.get_host().partition(':')[0]}//Talks and events//EN")
    found.add("version", "2.0")
    found.add("calscale", "GREGORIAN")
    found.add("x-wr-calname", name)
    for event in events:
        found.add_component(calendar_event(event, request))
    found.add_missing_timezones()
    return found


def calendar_response(
    events: Iterable[Event], *, name: str, request: HttpRequest, filename: str | None = None
) -> HttpResponse:
    """The calendar as a file: shown by a calendar application that subscribes to it, or
    saved (`filename`) from an event's "Add to calendar" link."""
    response = HttpResponse(calendar(events, name=name, request=request).to_ical(), CONTENT_TYPE)
    if filename is not None:
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
