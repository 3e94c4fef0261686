"""A profile's first request after an edit reads its kept values from the shared cache in one
round trip (base/site_cache.py `read_ahead`), not one each: on Redis each read is a round
trip on the network, and a profile keeps seven.

These tests commit for real (transaction=True): the change stamp moves when a transaction
commits, as on a live site."""

from collections import Counter

import pytest
from django.core.cache import caches
from django.db import transaction

from base.models import Lab
from tests.factories import make_person, make_publication

pytestmark = pytest.mark.django_db(transaction=True)

READS = ("get", "get_many", "has_key")


def cache_calls(monkeypatch) -> Counter:
    """Each call of the shared cache's methods, counted by name from now on: the round trips a
    Redis cache would make (the memory cache's get_many calls its get for each key, which one
    MGET on Redis does not: only the outermost call counts)."""
    backend = caches["default"]
    calls: Counter = Counter()
    depth = [0]
    for name in (*READS, "set", "set_many", "add", "incr", "delete"):
        method = getattr(backend, name)

        def counted(*args, _name=name, _method=method, **kwargs):
            calls[_name] += depth[0] == 0
            depth[0] += 1
            try:
                return _method(*args, **kwargs)
            finally:
                depth[0] -= 1

        monkeypatch.setattr(backend, name, counted)
    return calls


def test_a_profiles_first_request_after_a_paper_edit_reads_the_cache_in_few_round_trips(
    client, monkeypatch
):
    Lab.objects.current()  # made by the first page otherwise: a write between the requests
    hang = make_person(name="Hang Zhu", slug="hang-zhu")
    xin = make_person(name="Xin Jin", slug="xin-jin")
    ring = make_publication(title="Ring", year=2024, authors=[hang, xin, "Bo Zhao"])
    make_publication(title="Klotski", year=2023, authors=[hang])
    assert client.get("/people/hang-zhu/").status_code == 200

    ring.title = "Ring Revisited"
    with transaction.atomic():
        ring.save()
    calls = cache_calls(monkeypatch)
    response = client.get("/people/hang-zhu/")

    assert ">Ring Revisited</a>" in response.text
    # The stamp; the profile's seven kept values at once; its chart and network drawing ({% cache
    # %} fragments, each read by Django's template tag); the page itself (a miss).
    reads = sum(calls[name] for name in READS)
    assert reads <= 5, calls
