"""The numbering of changes behind the kept values (base/site_cache.py `bump_stamp`): a value
kept at change m is good at change n when none of m+1 … n touched what it follows. When the
shared cache loses the count alone (the file cache culls a third of its files at random once it
holds CACHE_MAX_ENTRIES; Redis evicts keys under its memory limit) while the epoch stays,
counting must not start again from 1 in the same epoch: a value kept at a higher number would
then look newer than the changes made after it, and be served stale (the CI run of 5 December
showed a profile without the bio just saved)."""

from base import caches, site_cache

KEPT = "profile-person"  # any registered kept value


def test_a_value_kept_before_the_count_was_lost_is_made_again_after_a_change_it_follows():
    made = []

    def compute() -> int:
        made.append(1)
        return len(made)

    for _ in range(5):
        site_cache.bump_stamp({"person:2"})
    assert site_cache.cached(KEPT, 1, compute, scopes={"person:1"}) == 1
    assert site_cache.cached(KEPT, 1, compute, scopes={"person:1"}) == 1  # kept
    # The count and the records of the changes so far are culled; the epoch stays.
    epoch = caches.read(caches.EPOCH_KEY)
    caches.forget(caches.change_counter_key(epoch))
    for number in range(1, 10):
        caches.forget(caches.change_key(epoch, number))

    site_cache.bump_stamp({"person:1"})  # an edit of what the value shows

    assert site_cache.cached(KEPT, 1, compute, scopes={"person:1"}) == 2
    assert site_cache.current_stamp().partition(".")[0] != epoch


def test_changes_from_a_higher_number_to_a_lower_one_are_not_known():
    assert site_cache.changes_between("abcd.9", "abcd.3") is None
    assert site_cache.changes_between("abcd.3", "abcd.3") == []


def test_a_stamp_written_out_of_order_does_not_hide_the_change_after_it():
    """Two writers take numbers n and n+1, and the one with n writes the stamp last: the stamp
    stands at n while change n+1 is recorded. A value kept before both that follows what
    change n+1 touched is made again all the same."""
    made = []

    def compute() -> int:
        made.append(1)
        return len(made)

    site_cache.bump_stamp({"person:2"})
    assert site_cache.cached(KEPT, 1, compute, scopes={"person:1"}) == 1
    site_cache.bump_stamp({"person:3"})  # the first writer's number and stamp ...
    first_writers_stamp = caches.read(caches.STAMP_KEY)
    site_cache.bump_stamp({"person:1"})  # ... the second writer's, of what the value shows,
    caches.write(caches.STAMP_KEY, first_writers_stamp, None)  # and the first writes last.

    assert site_cache.cached(KEPT, 1, compute, scopes={"person:1"}) == 2
    assert site_cache.cached(KEPT, 1, compute, scopes={"person:1"}) == 2  # kept again
