"""schema.org JSON-LD for an event's page: an `Event`, with its times in its own time zone
(ISO 8601 with the offset), where it happens and who speaks."""

from base.markdown import plain_text
from base.structured_data import described
from events.models import Event
from people.structured_data import person_reference


def event_data(event: Event, *, request) -> dict:
    """Reads only what Event.objects.for_listing() selected, and the published papers given."""
    data = {
        **described("Event", event, request=request),
        "name": event.title,
        "startDate": event.local_start.isoformat(),
        "endDate": event.local_end.isoformat(),
        "eventStatus": "https://schema.org/EventScheduled",
    }
    if event.place or event.event_name:
        data["location"] = {
            "@type": "Place",
            "name": event.place or event.event_name,
        }
    if event.speaker is not None:
        profile = event.speaker_profile
        data["performer"] = person_reference(
            event.speaker.name,
            profile,
            external=None if profile is not None else event.speaker,  # type: ignore[arg-type]
            request=request,
        )
    if event.event_name:
        data["superEvent"] = {"@type": "Event", "name": event.event_name}
    if description := plain_text(event.description_html):
        data["description"] = description
    if event.video_url:
        data["recordedIn"] = {"@type": "VideoObject", "url": event.video_url}
    return data
