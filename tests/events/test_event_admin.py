"""Staff edit talks and events in the admin: times typed in the event's own time zone, refused
in plain words when the zone is unknown or the end is not after the start; editors edit every
event, a member adds and edits the talks they give and no other; every save is in the history."""

import datetime
import zoneinfo

import pytest
from django.urls import reverse

from events.models import Event
from tests.factories import make_event, make_member, make_staff_login

pytestmark = pytest.mark.django_db

ADD_URL = "/admin/events/event/add/"


def event_form(**fields) -> dict:
    return {
        "title": "Caching at scale",
        "slug": "caching-at-scale",
        "kind": "talk",
        "starts_at_0": "2031-07-25",
        "starts_at_1": "14:00",
        "ends_at_0": "2031-07-25",
        "ends_at_1": "15:30",
        "time_zone": "Europe/Paris",
        "is_published": "on",
        **fields,
    }


@pytest.fixture
def lab():
    return {
        "ada": make_member("ada", "Ada Lovelace"),
        "grace": make_member("grace", "Grace Hopper"),
        "editor": make_staff_login("edith", role="Editors"),
    }


def test_times_are_typed_in_the_events_own_time_zone(client, lab):
    client.force_login(lab["editor"])
    response = client.post(ADD_URL, event_form())
    assert response.status_code == 302, response.context["errors"]
    event = Event.objects.get(slug="caching-at-scale")
    paris = zoneinfo.ZoneInfo("Europe/Paris")
    assert event.starts_at == datetime.datetime(2031, 7, 25, 14, 0, tzinfo=paris)
    assert event.ends_at == datetime.datetime(2031, 7, 25, 15, 30, tzinfo=paris)
    # And shown again as typed, not moved to the site's zone.
    page = client.get(reverse("admin:events_event_change", args=[event.pk])).content.decode()
    assert 'name="starts_at_1" value="14:00:00"' in page


def test_an_unknown_time_zone_is_refused_with_a_plain_message(client, lab):
    client.force_login(lab["editor"])
    response = client.post(ADD_URL, event_form(time_zone="Mars/Olympus"))
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert "is not a time zone this site knows" in errors["time_zone"][0]
    assert not Event.objects.exists()


def test_an_end_before_the_start_is_refused_on_the_end(client, lab):
    client.force_login(lab["editor"])
    response = client.post(ADD_URL, event_form(ends_at_1="13:00"))
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert errors["ends_at"] == ["The end must be after the start."]
    assert not Event.objects.exists()


def test_a_member_adds_a_talk_they_give_and_edits_it_in_the_history(client, lab):
    client.force_login(lab["ada"].user)
    response = client.post(ADD_URL, event_form())
    assert response.status_code == 302, response.context["errors"]
    event = Event.objects.get(slug="caching-at-scale")
    assert event.speaker_id == lab["ada"].pk
    change = reverse("admin:events_event_change", args=[event.pk])
    response = client.post(change, event_form(title="Caching at a larger scale"))
    assert response.status_code == 302, response.context["errors"]
    assert [row.title for row in event.history.all()] == [
        "Caching at a larger scale",
        "Caching at scale",
    ]


def test_a_member_cannot_open_or_change_another_members_talk(client, lab):
    talk = make_event(
        title="Grace's talk", speaker=lab["grace"], starts_in=datetime.timedelta(days=1)
    )
    client.force_login(lab["ada"].user)
    change = reverse("admin:events_event_change", args=[talk.pk])
    assert client.get(change).status_code == 403
    assert client.post(change, event_form()).status_code == 403
    listed = client.get("/admin/events/event/").content.decode()
    assert "Grace&#x27;s talk" not in listed and "Grace's talk" not in listed
    talk.refresh_from_db()
    assert talk.title == "Grace's talk"


def test_an_editor_changes_any_event(client, lab):
    talk = make_event(
        title="Grace's talk", speaker=lab["grace"], starts_in=datetime.timedelta(days=1)
    )
    client.force_login(lab["editor"])
    change = reverse("admin:events_event_change", args=[talk.pk])
    response = client.post(
        change, event_form(slug=talk.slug, speaker=str(lab["grace"].pk), title="Renamed")
    )
    assert response.status_code == 302, response.context["errors"]
    talk.refresh_from_db()
    assert talk.title == "Renamed" and talk.speaker_id == lab["grace"].pk


def test_a_member_previews_their_own_draft_talk_but_not_anothers(client, lab):
    own = make_event(speaker=lab["ada"], starts_in=datetime.timedelta(days=1), is_published=False)
    other = make_event(
        speaker=lab["grace"], starts_in=datetime.timedelta(days=1), is_published=False
    )
    client.force_login(lab["ada"].user)
    assert "Only staff see this page" in client.get(own.get_absolute_url()).content.decode()
    assert client.get(other.get_absolute_url()).status_code == 404


def test_the_speaker_picker_is_an_autocomplete_not_a_select_of_every_researcher(client, lab):
    for number in range(12):
        make_member(f"unrelated{number}", f"Unrelated Person {number}")
    client.force_login(lab["editor"])
    talk = make_event(speaker=lab["grace"], starts_in=datetime.timedelta(days=1))
    page = client.get(reverse("admin:events_event_change", args=[talk.pk])).content.decode()
    assert "Unrelated Person" not in page
    assert 'data-field-name="speaker"' in page and ">Grace Hopper</option>" in page
    found = client.get(
        reverse("admin:autocomplete"),
        {"term": "grace", "app_label": "events", "model_name": "event", "field_name": "speaker"},
    ).json()
    assert [result["text"] for result in found["results"]] == ["Grace Hopper"]
