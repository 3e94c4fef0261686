"""Which events are upcoming changes with the time, not with a write, so the page cache (keyed
by the change stamp) would keep showing an event as upcoming after it is over. A page that
splits them is kept only until the soonest upcoming event ends (site_cache.true_until), then
rendered anew: at most until that moment, never an hour or a day late.

These tests commit for real (transaction=True), as tests/test_site_cache.py: a page is cached
only outside a transaction that wrote."""

import datetime
from unittest import mock

import pytest
from django.utils import timezone

from base import site_cache
from base.models import Lab
from tests.events.test_event_pages import section_titles
from tests.factories import make_event, make_person

pytestmark = pytest.mark.django_db(transaction=True)


def moments_later(seconds: float):
    """The clocks the page cache (the cache's expiry, time.time) and the views (Django's
    timezone.now) read, moved `seconds` on."""
    real_time, real_now = site_cache.time.time, timezone.now
    return (
        mock.patch("time.time", lambda: real_time() + seconds),
        mock.patch(
            "django.utils.timezone.now", lambda: real_now() + datetime.timedelta(seconds=seconds)
        ),
    )


@pytest.mark.parametrize("url", ["/events/", "/people/ada/", "/events/soon/"])
def test_a_page_showing_an_event_as_upcoming_is_not_served_from_the_cache_once_it_is_over(
    client, url
):
    Lab.objects.current()
    ada = make_person(name="Ada Lovelace", slug="ada")
    make_event(title="Soon", slug="soon", speaker=ada, starts_in=datetime.timedelta(minutes=10))
    first = client.get(url)
    assert first[site_cache.CACHE_HEADER] == "miss"
    assert "ETag" not in first  # a 304 from the stamp alone would outlive the split
    assert client.get(url)[site_cache.CACHE_HEADER] == "hit"

    # The talk ends 70 minutes from now: a second after, the page is rendered anew.
    clock, now = moments_later(70 * 60 + 1)
    with clock, now:
        later = client.get(url)
    assert later[site_cache.CACHE_HEADER] == "miss"
    html = later.content.decode()
    if url == "/events/":
        assert section_titles(html, "upcoming") == [] and section_titles(html, "past") == ["Soon"]
    else:
        assert "Upcoming" not in html and "Past" in html


def test_a_page_with_only_past_events_is_validated_and_cached_as_any_page(client):
    Lab.objects.current()
    make_event(title="Long ago", starts_in=-datetime.timedelta(days=30))
    first = client.get("/events/")
    assert first["ETag"] and "Expires" not in first
    assert client.get("/events/")[site_cache.CACHE_HEADER] == "hit"
