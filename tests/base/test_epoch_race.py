"""Changes numbered while the epoch is replaced (base/site_cache.py `bump_stamp`), on the shared
caches a deployment uses (a folder of files, Redis), with the processes' steps run at once by
threads. When the cache loses a count, the next writer starts a new epoch; a writer that took
its number in the old epoch just before writes its stamp last. The old epoch's numbering then
goes on from a value's stamp without the changes recorded in the new epoch only: a value kept
before one of those would be served stale, until some later change."""

import threading

import pytest

from base import caches, site_cache
from tests.base.test_change_numbering import counting
from tests.base.test_site_cache_backends import (  # noqa: F401 (fixtures)
    bundled_redis_url,
    redis_url,
    shared_cache,
)

KEPT = "profile-person"  # any registered kept value


@pytest.mark.usefixtures("shared_cache")
def test_a_change_recorded_in_a_new_epoch_reaches_a_value_kept_in_the_old_one(monkeypatch):
    compute = counting()
    site_cache.bump_stamp({"person:2"})
    assert site_cache.cached(KEPT, 1, compute, scopes={"person:1"}) == 1
    assert site_cache.cached(KEPT, 1, compute, scopes={"person:1"}) == 1  # kept
    old_epoch = caches.read(caches.EPOCH_KEY)

    # A writer of something else (person 9) takes its number in the epoch, then is held.
    numbered, resume = threading.Event(), threading.Event()
    increment = caches.increment

    def held_increment(key: str) -> int:
        number = increment(key)
        if threading.current_thread().name == "slow-writer":
            numbered.set()
            assert resume.wait(10)
        return number

    monkeypatch.setattr(caches, "increment", held_increment)
    slow = threading.Thread(
        target=site_cache.bump_stamp, args=({"person:9"},), name="slow-writer", daemon=True
    )
    slow.start()
    assert numbered.wait(10)

    # Meanwhile the count is lost, and an edit of what the value shows (person 1) starts a
    # new epoch.
    caches.forget(caches.change_counter_key(old_epoch))
    site_cache.bump_stamp({"person:1"})
    assert caches.read(caches.EPOCH_KEY) != old_epoch

    # The held writer records its change in the old epoch and writes its stamp last.
    resume.set()
    slow.join(10)
    assert not slow.is_alive()

    assert site_cache.cached(KEPT, 1, compute, scopes={"person:1"}) == 2
