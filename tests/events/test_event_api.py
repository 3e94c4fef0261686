"""/api/events/: the talks and events as data, in the OpenAPI schema, filtered as on /events/,
with each time in the event's own time zone."""

import datetime

from django.test import TestCase

from events.models import Event
from tests.factories import count_queries, make_event, make_person

DAY = datetime.timedelta(days=1)


class EventApiTests(TestCase):
    @classmethod
    def setUpTestData(cls):
        cls.ada = make_person(name="Ada Lovelace", slug="ada")
        start = datetime.datetime(2031, 7, 25, 12, 0, tzinfo=datetime.UTC)
        Event.objects.create(
            title="Caching at scale",
            slug="caching-at-scale",
            speaker=cls.ada,
            starts_at=start,
            ends_at=start + datetime.timedelta(hours=1),
            time_zone="Europe/Paris",
        )
        make_event(title="A seminar", kind=Event.Kind.SEMINAR, starts_in=-DAY)
        make_event(title="A draft", starts_in=DAY, is_published=False)

    def test_the_list_holds_published_events_newest_first_with_their_own_offsets(self):
        data = self.client.get("/api/events/").json()
        assert [row["title"] for row in data["results"]] == ["Caching at scale", "A seminar"]
        first = data["results"][0]
        assert first["starts_at"] == "2031-07-25T14:00:00+02:00"
        assert first["time_zone"] == "Europe/Paris" and first["upcoming"] is True
        assert first["speaker"]["name"] == "Ada Lovelace"
        assert first["speaker"]["url"].endswith("/people/ada/")
        assert first["calendar"].endswith("/events/caching-at-scale.ics")
        assert data["results"][1]["upcoming"] is False

    def test_the_list_takes_the_pages_filters_and_refuses_an_unknown_kind(self):
        data = self.client.get("/api/events/?kind=seminar").json()
        assert [row["title"] for row in data["results"]] == ["A seminar"]
        assert self.client.get("/api/events/?kind=party").status_code == 400

    def test_one_event_and_a_drafts_404(self):
        data = self.client.get("/api/events/caching-at-scale/").json()
        assert data["ends_at"] == "2031-07-25T15:00:00+02:00"
        draft = Event.objects.get(title="A draft")
        assert self.client.get(f"/api/events/{draft.slug}/").status_code == 404

    def test_an_upcoming_events_answer_says_until_when_it_holds(self):
        response = self.client.get("/api/events/caching-at-scale/")
        assert response["Expires"] == "Fri, 25 Jul 2031 13:00:00 GMT"

    def test_the_endpoints_are_in_the_openapi_schema(self):
        schema = self.client.get("/api/openapi.json").json()
        assert {"/api/events/", "/api/events/{slug}/"} <= set(schema["paths"])
        kinds = next(
            parameter
            for parameter in schema["paths"]["/api/events/"]["get"]["parameters"]
            if parameter["name"] == "kind"
        )
        assert set(kinds["schema"]["items"]["enum"]) == set(Event.Kind.values)

    def test_the_list_runs_as_many_queries_with_many_events(self):
        self.client.get("/")
        few = count_queries(self.client, "/api/events/")
        for number in range(25):
            make_event(starts_in=number * DAY, speaker=self.ada)
        assert count_queries(self.client, "/api/events/") == few
