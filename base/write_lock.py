"""Long writers beside short ones on SQLite, where one connection at a time holds the write
lock and the others wait for it up to their busy timeout (SQLITE_BUSY_TIMEOUT).

SQLite's waiting is not a queue: a waiting connection sleeps and tries again, so a task that
commits one batch and begins the next at once takes the lock again before the sleepers wake,
and editors' saves and sign-ins wait out their timeout behind a long import ("database is
locked", a 500). A long task therefore steps aside after each commit (`step_aside`), and the
task itself, which can redo a whole batch, waits again when its own wait ran out
(`again_when_locked`). A web request's write begins again too (`write_transaction`, a
sign-in's whole request through `SignInWritesMiddleware`), within SQLITE_WRITE_WAIT seconds
in all; past them it answers 503 "The site is busy" (`server_error`), never a 500. PostgreSQL
locks rows, not the database: there none of this does anything.
"""

import fcntl
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import TypeVar

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, OperationalError, connection, connections, transaction
from django.http import HttpRequest, HttpResponse, HttpResponseServerError
from django.template import loader
from django.urls import reverse
from django.views import defaults

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


# What a request that gave up waiting tells the client: try again in a minute.
RETRY_AFTER_SECONDS = 60


def write_wait_seconds() -> float:
    """How long in all a web request waits for the write lock before it answers 503: well
    within a client's or a proxy's patience (60 s for both nginx's default and `make load`'s
    clients), whatever SQLite's busy timeout is."""
    return float(getattr(settings, "SQLITE_WRITE_WAIT_SECONDS", 30))


@contextmanager
def busy_timeout_at_most(seconds: float, *, using: str) -> Iterator[None]:
    """SQLite's busy timeout cut to `seconds` while the block runs, when it is longer: the
    last try for the lock must end when the request's wait does."""
    database = connections[using]
    configured = float(database.settings_dict.get("OPTIONS", {}).get("timeout", 5))
    if seconds >= configured:
        yield
        return
    with database.cursor() as cursor:
        cursor.execute(f"PRAGMA busy_timeout = {max(1, int(seconds * 1000))}")
    try:
        yield
    finally:
        with database.cursor() as cursor:
            cursor.execute(f"PRAGMA busy_timeout = {int(configured * 1000)}")


# A process's writers wait for their turn in one queue each; between processes, this often.
TURN_POLL_SECONDS = 0.005
_turns: dict[str, threading.Lock] = {}
_turns_made = threading.Lock()


def turn_file(using: str) -> str | None:
    """The file whose lock says which web process's writer is next, beside the SQLite
    database's own file; None where there is no such file (PostgreSQL, an in-memory one)."""
    database = connections[using]
    name = str(database.settings_dict.get("NAME") or "")
    if database.vendor != "sqlite" or not name or name.startswith("file:") or ":memory:" in name:
        return None
    return f"{name}-writers"


@contextmanager
def writers_turn(*, using: str, deadline: float) -> Iterator[None]:
    """A web request's write waits its turn, in order of arrival, before it asks SQLite for
    the lock. SQLite's own waiting favours the newest waiter: one that has waited longest
    tries every 100 ms, one that just came every few, so under ten editors saving back to
    back some waited past any bound (503s under `make load`) while the lock was never idle.
    Here a process's writers queue on one lock (woken in order), and only the first of each
    process asks for a file lock beside the database, then for SQLite's: two or three
    waiters, not seventeen. The import's worker does not queue; it steps aside after each
    batch (`step_aside`), which lets the first writer in."""
    path = turn_file(using)
    if path is None or connections[using].in_atomic_block:
        yield
        return
    with _turns_made:
        turn = _turns.setdefault(path, threading.Lock())
    if not turn.acquire(timeout=max(0.0, deadline - time.monotonic())):
        raise OperationalError("database is locked: no turn within the wait")
    try:
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            while True:
                try:
                    fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        raise OperationalError(
                            "database is locked: no turn within the wait"
                        ) from None
                    time.sleep(TURN_POLL_SECONDS)
            yield
        finally:
            os.close(descriptor)  # and the file lock with it
    finally:
        turn.release()


@contextmanager
def write_transaction(using: str | None = None) -> Iterator[None]:
    """transaction.atomic() for a web request's write (an admin save, a sign-in), whose BEGIN
    waits again when SQLite's busy timeout ran out before it got the write lock: nothing had
    begun, so the request goes on instead of answering 500 "database is locked". Under
    `make load` (10 editors and an import) one save or sign-in in a hundred waited past 20 s:
    SQLite's waiting is not a queue, and some waiters lose every time the lock is freed.

    It waits its turn first (`writers_turn`), and write_wait_seconds() in all, never more
    (five tries of a 20 s busy timeout added up to 100 s, longer than any client waits);
    then the error goes up, and `server_error` answers 503 "busy, try again in a minute"."""
    alias = using or DEFAULT_DB_ALIAS
    deadline = time.monotonic() + write_wait_seconds()
    with ExitStack() as stack:
        stack.enter_context(writers_turn(using=alias, deadline=deadline))
        while True:
            try:
                with busy_timeout_at_most(deadline - time.monotonic(), using=alias):
                    stack.enter_context(transaction.atomic(using=using))
                break
            except OperationalError as error:
                waited_out = deadline - time.monotonic() < 0.01
                if waited_out or connections[alias].in_atomic_block:
                    raise
                if not is_write_lock_timeout(error):
                    raise
        yield


class SignInWritesMiddleware:
    """A sign-in or sign-out through the admin's form (POST) writes in one write_transaction:
    django-axes' clean-up and access log, the new session, the last login, and the session's
    save, which SessionMiddleware makes after the view, outside any transaction the view
    opened. On SQLite each transaction waits for the one write lock on its own, and under a
    running import the session's save, tried once, ran out of time after the password had
    been accepted: 400 ("the session was deleted before the request completed"), and the
    member was not signed in. Placed before SessionMiddleware, so its save is inside."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method == "POST" and request.path_info in (
            reverse("admin:login"),
            reverse("admin:logout"),
        ):
            with write_transaction():
                return self.get_response(request)
        return self.get_response(request)


def server_error(request: HttpRequest) -> HttpResponse:
    """handler500: a request that could not have SQLite's write lock in time (another writer
    kept it: an import, a colleague's save) is told the site is busy, 503 with Retry-After,
    instead of "Something went wrong" (500)."""
    error = sys.exc_info()[1]
    if isinstance(error, OperationalError) and is_write_lock_timeout(error):
        busy = HttpResponse(loader.get_template("503.html").render(), status=503)
        busy["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return busy
    response: HttpResponseServerError = defaults.server_error(request)
    return response
