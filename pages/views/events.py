"""/events/: talks and the lab's events, upcoming and past apart, one event's page, and the
calendars (iCalendar) of the site, of a person, of a group and of one event.

Which events are upcoming changes with the time, not with a write: every page that splits
them says until when it stays true (`site_cache.true_until`: the soonest end of an upcoming
event it counts), and the page cache keeps it no longer (base/site_cache.py)."""

import datetime
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone

from base.models import Lab
from base.pagination import paginate
from base.site_cache import true_until
from base.structured_data import json_ld_script
from events.calendars import CALENDAR_EVENTS, calendar_response, with_change_time
from events.filters import EventFilter, event_facets
from events.models import Event, EventQuerySet
from events.structured_data import event_data
from publications.entries import listed
from publications.feeds import plain_text
from publications.filters import filters_query

PER_PAGE = 20
# The past events a profile or a group's page lists under its upcoming ones.
RECENT_PAST = 5


@dataclass(frozen=True)
class Schedule:
    """Events of a page, upcoming (soonest first) and recent past (newest first), and when the
    first upcoming one is over: until then the split stays true."""

    upcoming: list[Event]
    past: list[Event]
    changes_at: datetime.datetime | None
    more_past: bool


def schedule(events: EventQuerySet, *, now: datetime.datetime) -> Schedule:
    """For a profile or a group's page: two queries, whatever the number of events."""
    upcoming = list(events.for_listing().upcoming(now))
    past = list(events.for_listing().past(now)[: RECENT_PAST + 1])
    return Schedule(
        upcoming=upcoming,
        past=past[:RECENT_PAST],
        changes_at=min((event.ends_at for event in upcoming), default=None),
        more_past=len(past) > RECENT_PAST,
    )


def render_with_schedule(
    request: HttpRequest, template: str, context: dict[str, Any], *, events: EventQuerySet
) -> HttpResponse:
    """A profile or a group's page, its `context` with the schedule of `events` ("schedule"):
    kept no longer than its first upcoming event lasts (true_until)."""
    found = schedule(events, now=timezone.now())
    response = render(request, template, {**context, "schedule": found})
    true_until(response, found.changes_at)
    return response


def index(request):
    """Upcoming events first, all of them, on the first page; the past ones below, newest
    first, in pages. The filters and their counts cover both."""
    now = timezone.now()
    filterset = EventFilter(request.GET, queryset=Event.objects.published().for_listing())
    matching = filterset.qs
    page = paginate(request, matching.past(now), per_page=PER_PAGE)
    upcoming = list(matching.upcoming(now)) if page.number == 1 else []
    response = render(
        request,
        "events/event_list.html",
        {
            "filterset": filterset,
            "facets": event_facets(filterset),
            "upcoming": upcoming,
            "page": page,
            "ignored": filterset.notices(),
            "filters_query": filters_query(filterset),
        },
    )
    true_until(response, matching.next_change(now))
    return response


def detail(request, slug):
    event = get_object_or_404(Event.objects.visible_to(request.user).for_listing(), slug=slug)
    now = timezone.now()
    response = render(
        request,
        "events/event_detail.html",
        {
            "event": event,
            "is_over": event.is_over(now),
            "publications": listed(event.publications.published()),
            "json_ld": json_ld_script(event_data(event, request=request)),
        },
    )
    if not event.is_over(now):
        true_until(response, event.ends_at)
    return response


def calendar(request):
    """/events/calendar.ics: the site's talks and events; `?person=` a member's, `?group=` a
    group's, as the list's filters read them. A value the list would ignore is a 400 in its
    words, as for the Atom feeds."""
    filterset = EventFilter(request.GET, queryset=Event.objects.published().for_listing())
    if ignored := filterset.ignored_values():
        return plain_text("\n".join(ignored), status=400)
    form = filterset.form
    about = [
        dict(form.fields[name].choices)[value]
        for name in ("person",)
        if (value := form.cleaned_data.get(name))
    ]
    about += [
        dict(form.fields["group"].choices)[value] for value in form.cleaned_data.get("group") or []
    ]
    lab = Lab.objects.current().name
    name = f"{lab}: talks and events" + (f" ({', '.join(about)})" if about else "")
    events = with_change_time(filterset.qs.order_by("-starts_at", "slug"))[:CALENDAR_EVENTS]
    return calendar_response(events, name=name, request=request)


def event_calendar(request, slug):
    """/events/<slug>.ics: one event, for "Add to calendar"."""
    events = with_change_time(Event.objects.published().for_listing())
    event = get_object_or_404(events, slug=slug)
    return calendar_response(
        [event], name=event.title, request=request, filename=f"{event.slug}.ics"
    )
