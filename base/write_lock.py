"""Long writers beside short ones on SQLite, where one connection at a time holds the write
lock and the others wait for it up to their busy timeout (SQLITE_BUSY_TIMEOUT).

SQLite's waiting is not a queue: a waiting connection sleeps and tries again, so a task that
commits one batch and begins the next at once takes the lock again before the sleepers wake,
and editors' saves and sign-ins wait out their timeout behind a long import ("database is
locked", a 500). A long task therefore steps aside after each commit (`step_aside`), and the
task itself, which can redo a whole batch, waits again when its own wait ran out
(`again_when_locked`), where a web request would have to fail. PostgreSQL locks rows, not the
database: there neither does anything.
"""

import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import TypeVar

from django.db import OperationalError, connection, transaction

T = TypeVar("T")

# Longer than SQLite's longest sleep between two tries (100 ms), so a waiting writer wakes
# and takes the lock before the task's next transaction begins.
STEP_ASIDE_SECONDS = 0.15
# A batch whose busy timeout ran out is tried again this many times in all, after stepping
# aside a little longer each time.
ATTEMPTS = 5


def on_sqlite() -> bool:
    return connection.vendor == "sqlite"


def is_write_lock_timeout(error: OperationalError) -> bool:
    return on_sqlite() and "database is locked" in str(error)


def may_wait_again(error: OperationalError, *, attempt: int) -> bool:
    """Whether a transaction that failed with `error` on its `attempt`-th try waits for the
    lock again: its wait ran out, it was no part of another transaction, tries are left."""
    return attempt < ATTEMPTS and not connection.in_atomic_block and is_write_lock_timeout(error)


def step_aside() -> None:
    """After a long task's commit: let the writers that waited for the lock have it."""
    if on_sqlite():
        time.sleep(STEP_ASIDE_SECONDS)


def again_when_locked(work: Callable[[], T], *, waiting: Callable[[], None] | None = None) -> T:
    """`work` (one whole transaction, outside any other) again when SQLite's busy timeout ran
    out before it got the write lock; it was rolled back, so nothing of it was written.
    `waiting` is called before each new try: a task's heartbeat, so that minutes spent waiting
    for the lock do not look like a dead worker."""
    for attempt in range(1, ATTEMPTS + 1):
        if attempt > 1 and waiting is not None:
            waiting()
        try:
            return work()
        except OperationalError as error:
            if not may_wait_again(error, attempt=attempt):
                raise
            time.sleep(STEP_ASIDE_SECONDS * attempt)
    raise AssertionError("unreachable")  # the loop returns or raises


@contextmanager
def write_transaction(using: str | None = None) -> Iterator[None]:
    """transaction.atomic() for a web request's write (an admin save, a sign-in), whose BEGIN
    waits again when SQLite's busy timeout ran out before it got the write lock: nothing had
    begun, so the request goes on instead of answering 500 "database is locked". Under
    `make load` (10 editors and an import) one save or sign-in in a hundred waited past 20 s:
    SQLite's waiting is not a queue, and some waiters lose every time the lock is freed."""
    with ExitStack() as stack:
        for attempt in range(1, ATTEMPTS + 1):
            try:
                stack.enter_context(transaction.atomic(using=using))
                break
            except OperationalError as error:
                if not may_wait_again(error, attempt=attempt):
                    raise
        yield
