"""The numbering of changes behind the kept values (base/site_cache.py `bump_stamp`): a value
kept at change m is good at change n when none of m+1 … n touched what it follows. When the
shared cache loses the count alone (the file cache culls a third of its files at random once it
holds CACHE_MAX_ENTRIES; Redis evicts keys under its memory limit) while the epoch stays,
counting must not start again from 1 in the same epoch: a value kept at a higher number would
then look newer than the changes made after it, and be served stale (the CI run of 5 December
showed a profile without the bio just saved)."""

from collections.abc import Callable

from base import caches, site_cache

KEPT = "profile-person"  # any registered kept value


def counting() -> Callable[[], int]:
    """A value's computation that says how many times it ran: 1, then 2 once made again."""
    made = []

    def compute() -> int:
        made.append(1)
        return len(made)

    return compute


def stamps_written_out_of_order() -> None:
    """Two writers take numbers n (of person 3) and n+1 (of person 1), and the one with n
    writes the stamp last: the stamp stands at n while change n+1 is recorded."""
    site_cache.bump_stamp({"person:3"})  # the first writer's number and stamp ...
    first_writers_stamp = caches.read(caches.STAMP_KEY)
    site_cache.bump_stamp({"person:1"})  # ... the second writer's, of what the value shows,
    caches.write(caches.STAMP_KEY, first_writers_stamp, None)  # and the first writes last.


def test_a_value_kept_before_the_count_was_lost_is_made_again_after_a_change_it_follows():
    compute = counting()
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
    compute = counting()
    site_cache.bump_stamp({"person:2"})
    assert site_cache.cached(KEPT, 1, compute, scopes={"person:1"}) == 1
    stamps_written_out_of_order()

    assert site_cache.cached(KEPT, 1, compute, scopes={"person:1"}) == 2
    assert site_cache.cached(KEPT, 1, compute, scopes={"person:1"}) == 2  # kept again


def test_a_process_just_started_sees_the_change_after_a_stamp_written_out_of_order(monkeypatch):
    """As the test above, but the value is then asked by a
    process that has read no stamp yet (another app server just (re)started, a new worker)."""
    compute = counting()
    site_cache.bump_stamp({"person:2"})
    assert site_cache.cached(KEPT, 1, compute, scopes={"person:1"}) == 1
    stamps_written_out_of_order()

    monkeypatch.setattr(site_cache, "_epoch_seen", None)  # a fresh process
    assert site_cache.cached(KEPT, 1, compute, scopes={"person:1"}) == 2, (
        "a fresh process reads the stamp alone and serves the value kept before change n+1"
    )


def test_a_value_kept_at_the_count_before_a_later_change_is_made_again_by_a_process_just_started(
    monkeypatch,
):
    """Writer A takes number n and is held; a process that has seen the epoch reads the count
    (n) and keeps a value at n, before writer B's change n+1 (of what the value shows). B
    writes its stamp, then A writes n last. A process that has read no stamp yet reads n alone
    and takes the value kept at n, made before change n+1, as current."""
    site_cache.bump_stamp({"person:2"})
    epoch = caches.read(caches.EPOCH_KEY)
    site_cache._shared_stamp()  # this process has seen the epoch
    # Writer A: its number, held before its record and stamp.
    number_a = caches.increment(caches.change_counter_key(epoch))
    # This process: the stamp is taken at the count, n; a value made now is kept at n.
    stamp_seen = site_cache._shared_stamp()
    assert stamp_seen == f"{epoch}.{number_a}"
    caches.write(
        caches.lasting_key(KEPT, 7, release=site_cache.release()),
        site_cache._entry(stamp_seen, "before person 1's edit", None),
        None,
    )
    # Writer B: change n+1 of person 1, recorded, its stamp written.
    site_cache.bump_stamp({"person:1"})
    # Writer A resumes: its record, then its stamp, last.
    change = site_cache.Change(0.0, frozenset({"person:9"}))
    caches.add(caches.change_key(epoch, number_a), change, None)
    caches.write(caches.STAMP_KEY, (f"{epoch}.{number_a}", change), None)

    monkeypatch.setattr(site_cache, "_epoch_seen", None)  # a fresh process
    value = site_cache.cached(KEPT, 7, lambda: "after person 1's edit", scopes={"person:1"})
    assert value == "after person 1's edit", value
