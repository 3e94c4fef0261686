"""/api/events/: talks and events as data, with the list page's filters (events/filters.py).

Whether an event is upcoming changes with the time: each answer says until when it stays true
(site_cache.true_until), so the page cache keeps it no longer."""

from django.http import HttpRequest
from ninja import Field, Router, Schema

from base.api import NamedPageOut, PageOut, add_detail, add_filtered_list, page_link, titled_page
from events.filters import EventFilter
from events.models import Event

router = Router(tags=["events"])

PER_PAGE = 20


class SpeakerOut(Schema):
    name: str
    url: str | None = Field(description="Their profile, when they are a published member.")


class EventSummaryOut(Schema):
    slug: str
    title: str
    url: str
    kind: str
    starts_at: str = Field(description="ISO 8601 with the offset of the event's own time zone.")
    ends_at: str = Field(description="ISO 8601 with the offset of the event's own time zone.")
    time_zone: str = Field(description='The IANA time zone it takes place in: "Europe/Paris".')
    upcoming: bool = Field(description="Not over yet when this answer was made.")
    event_name: str
    place: str
    speaker: SpeakerOut | None
    group: NamedPageOut | None
    calendar: str = Field(description="Its iCalendar file (Add to calendar).")


class EventOut(EventSummaryOut):
    description: str = Field(description="Markdown.")
    description_html: str = Field(description="The description as the page shows it.")
    slides: str
    video: str
    publications: list[NamedPageOut] = Field(description="The papers it presents.")


class EventPage(PageOut[EventSummaryOut]):
    pass


def event_summary(event: Event, request: HttpRequest) -> dict:
    """Reads only what Event.objects.for_listing() selected."""
    profile = event.speaker_profile
    speaker = event.speaker
    return {
        **titled_page(event, request),
        "kind": event.kind,
        "starts_at": event.local_start.isoformat(),
        "ends_at": event.local_end.isoformat(),
        "time_zone": event.time_zone,
        "upcoming": not event.is_over(),
        "event_name": event.event_name,
        "place": event.place,
        "speaker": None
        if speaker is None
        else {
            "name": speaker.name,
            "url": None
            if profile is None
            else request.build_absolute_uri(profile.get_absolute_url()),
        },
        "group": None
        if event.group is None or not event.group.is_published
        else page_link(event.group, event.group.name, request),
        "calendar": request.build_absolute_uri(f"{event.get_absolute_url().rstrip('/')}.ics"),
    }


add_filtered_list(
    router,
    "/events/",
    operation_id="list_events",
    summary="Talks and events, filtered as on /events/",
    description="Newest first (Event.Meta.ordering), upcoming and past together: `upcoming` "
    "tells them apart.",
    filterset_class=EventFilter,
    rows=lambda: Event.objects.published().for_listing(),
    row=event_summary,
    page=EventPage,
    per_page=PER_PAGE,
    changes_at=lambda events: events.next_change(),
)


@add_detail(
    router,
    "/events/{slug}/",
    EventOut,
    lambda: Event.objects.published().for_listing(),
    changes_at=lambda event: None if event.is_over() else event.ends_at,
)
def get_event(event: Event, request: HttpRequest) -> dict:
    """One talk or event"""
    publications = event.publications.published().only("slug", "title")
    return {
        **event_summary(event, request),
        "description": event.description,
        "description_html": str(event.description_html),
        "slides": event.slides_url,
        "video": event.video_url,
        "publications": [page_link(paper, paper.title, request) for paper in publications],
    }
