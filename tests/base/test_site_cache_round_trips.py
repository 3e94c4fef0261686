"""The shared cache is a round trip away (Redis, or a file opened): the first request after a
change reads the change stamp and the record of what that change touched in one read, not two
(a paper's page after its save: five round trips to Redis, now four)."""

from unittest import mock

from base import caches, site_cache


def test_the_stamp_is_read_with_the_record_of_the_change_that_set_it():
    before = site_cache._shared_stamp()
    site_cache.bump_stamp({"paper:1"})  # another process's commit
    site_cache._changes_read.clear()  # this process has read no change yet
    with mock.patch.object(caches, "read_many", wraps=caches.read_many) as read_many:
        after = site_cache._shared_stamp()
        changes = site_cache.changes_between(before, after)
    assert changes is not None
    assert [change.scopes for change in changes] == [frozenset({"paper:1"})]
    # One read: the stamp, its epoch and the epoch's count together; the record came with
    # the stamp.
    assert read_many.call_count == 1


def test_a_stamp_without_its_record_is_still_read():
    """As an older release wrote it, or a test sets it."""
    caches.write(caches.STAMP_KEY, "f00d.7", None)
    assert site_cache._shared_stamp() == "f00d.7"
