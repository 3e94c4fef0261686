"""The iCalendar files, parsed back with the `icalendar` package as a calendar application
reads them: the site's, a person's and a group's calendar, and one event's "Add to calendar"
file. Each event keeps its own time zone (TZID and its VTIMEZONE), a UID that stays when the
event is edited, and a DTSTAMP."""

import datetime

import icalendar
import pytest
from django.core.exceptions import ValidationError
from django.test import TestCase

from events.models import Event
from people.models import ResearchGroup
from tests.factories import make_event, make_person

DAY = datetime.timedelta(days=1)


def read_calendar(client, url: str) -> icalendar.Calendar:
    response = client.get(url)
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    return icalendar.Calendar.from_ical(response.content)


def summaries(calendar: icalendar.Calendar) -> set[str]:
    return {str(event["SUMMARY"]) for event in calendar.walk("VEVENT")}


class CalendarTests(TestCase):
    @classmethod
    def setUpTestData(cls):
        cls.ada = make_person(name="Ada Lovelace", slug="ada")
        cls.group = ResearchGroup.objects.create(name="Systems", slug="systems")
        start = datetime.datetime(2031, 1, 15, 17, 0, tzinfo=datetime.UTC)
        cls.talk = Event.objects.create(
            title="Caching at scale",
            slug="caching-at-scale",
            speaker=cls.ada,
            event_name="NSDI 2031",
            place="Room 4.12",
            starts_at=start,
            ends_at=start + datetime.timedelta(hours=1),
            time_zone="America/New_York",
            video_url="https://example.org/video",
        )
        make_event(title="Group seminar", starts_in=DAY, group=cls.group, time_zone="Asia/Tokyo")
        make_event(title="Someone else's talk", starts_in=-DAY)
        make_event(title="A draft", starts_in=DAY, is_published=False)

    def test_the_sites_calendar_holds_every_published_event(self):
        calendar = read_calendar(self.client, "/events/calendar.ics")
        assert summaries(calendar) == {"Caching at scale", "Group seminar", "Someone else's talk"}
        assert str(calendar["VERSION"]) == "2.0" and calendar["PRODID"]

    def test_a_persons_and_a_groups_calendars_hold_theirs_only(self):
        person = read_calendar(self.client, "/events/calendar.ics?person=ada")
        group = read_calendar(self.client, "/events/calendar.ics?group=systems")
        assert summaries(person) == {"Caching at scale"}
        assert summaries(group) == {"Group seminar"}
        assert "Ada Lovelace" in str(person["X-WR-CALNAME"])

    def test_an_event_keeps_its_own_time_zone_with_its_vtimezone(self):
        calendar = read_calendar(self.client, "/events/calendar.ics?person=ada")
        (event,) = calendar.walk("VEVENT")
        assert event["DTSTART"].params["TZID"] == "America/New_York"
        start = event.decoded("DTSTART")
        # 17:00 UTC is noon in New York in January.
        assert (start.hour, start.minute) == (12, 0)
        assert start.astimezone(datetime.UTC) == self.talk.starts_at
        assert event.decoded("DTEND").astimezone(datetime.UTC) == self.talk.ends_at
        zones = {str(zone["TZID"]) for zone in calendar.walk("VTIMEZONE")}
        assert zones == {"America/New_York"}
        assert "NSDI 2031" in str(event["LOCATION"]) and "Room 4.12" in str(event["LOCATION"])
        assert "https://example.org/video" in str(event["DESCRIPTION"])

    def test_the_uid_stays_when_the_event_is_edited_and_dtstamp_is_when_it_changed(self):
        before = read_calendar(self.client, "/events/calendar.ics?person=ada").walk("VEVENT")[0]
        self.talk.title = "Caching at a larger scale"
        self.talk.save()
        after = read_calendar(self.client, "/events/calendar.ics?person=ada").walk("VEVENT")[0]
        assert str(after["UID"]) == str(before["UID"])
        assert str(after["SUMMARY"]) == "Caching at a larger scale"
        stamp = after.decoded("DTSTAMP")
        assert stamp.tzinfo is not None and stamp.utcoffset() == datetime.timedelta(0)
        assert stamp == self.talk.history.first().history_date.replace(microsecond=0)

    def test_add_to_calendar_is_a_file_with_the_one_event(self):
        response = self.client.get("/events/caching-at-scale.ics")
        assert response["Content-Disposition"] == 'attachment; filename="caching-at-scale.ics"'
        calendar = icalendar.Calendar.from_ical(response.content)
        assert summaries(calendar) == {"Caching at scale"}
        assert [str(zone["TZID"]) for zone in calendar.walk("VTIMEZONE")] == ["America/New_York"]

    def test_a_drafts_file_is_not_found(self):
        draft = Event.objects.get(title="A draft")
        assert self.client.get(f"/events/{draft.slug}.ics").status_code == 404

    def test_an_unknown_person_is_refused_in_plain_words(self):
        response = self.client.get("/events/calendar.ics?person=nobody")
        assert response.status_code == 400
        assert "was ignored" in response.content.decode()

    def test_an_event_cannot_take_the_calendars_address_as_its_slug(self):
        event = Event(title="Calendar", slug="calendar", starts_at=self.talk.starts_at)
        event.ends_at = self.talk.ends_at
        with pytest.raises(ValidationError) as refused:
            event.full_clean()
        assert "slug" in refused.value.message_dict
