"""Public pages kept whole in Django's cache, and answered "304 Not Modified" when unchanged.

Every public page, feed and export shows only what staff saved, so one site-wide **change
stamp** says whether any of them may have changed: a random token in the shared cache, replaced
after any transaction that saved or deleted a row of the site (`note_change`, connected to every
model's signals in `base.apps`). A page's ETag is the code's release and the stamp; its
cache key is the release, the stamp and its normalised URL. So an edit in the admin shows on the
next request, on every app server that shares the cache, without anyone listing the pages it
touched; pages cached under an older stamp are never read again and expire.

`SiteCacheMiddleware` sits right after whitenoise: a conditional request that still matches is
answered from the stamp alone, before sessions, the URLconf or any query, and a cached page
without rendering it. A request with a session cookie (a staff member, who may preview drafts)
is never served from the cache nor stored in it, and its answer is marked private, no-store.

The stamp lives in the cache, not the database, so that a 304 or a cached page needs no query;
losing it (a restarted Redis, an evicted key) only makes a new one, which empties the page cache
in effect. Writes made without model signals (`QuerySet.update()`, `bulk_create()`,
`bulk_update()`) move it through the managers every site model uses
(`base.querysets.SiteQuerySet`, enforced by the system check directory.E003); raw SQL must
call `note_change()` itself.
"""

import datetime
import functools
import hashlib
import io
import logging
import pickle
import secrets
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar, cast

from django.apps import apps
from django.conf import settings
from django.core.handlers.wsgi import WSGIHandler, WSGIRequest
from django.core.signals import request_finished
from django.db import DEFAULT_DB_ALIAS, connections, models, transaction
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.template.loader import get_template
from django.utils import translation
from django.utils.cache import get_max_age, patch_cache_control, patch_vary_headers
from django.utils.http import http_date, parse_http_date_safe
from django.utils.safestring import mark_safe

from base import caches

logger = logging.getLogger(__name__)

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)
P = ParamSpec("P")

STAMP_KEY = caches.STAMP_KEY
# Told to tests and the benchmark: whether the page came from the cache.
CACHE_HEADER = "X-Site-Cache"
# In a change's scopes: it may have touched anything (a bulk write, a model naming no scopes).
EVERYTHING = "*"
# Changes read to bring a kept value up to date; further behind, it is computed anew.
MOST_CHANGES_READ = 200
# An update() of at most this many rows of a model that names its scopes moves those scopes
# only (a paper's search text); a larger one moves everything.
FEW_ROWS_SCOPED = 20
# How long the record of what a change touched is kept.
CHANGE_RECORD_SECONDS = 24 * 3600


# The stamp as it was when the request being served began (SiteCacheMiddleware sets it).
_request_stamp: ContextVar[str | None] = ContextVar("site_request_stamp", default=None)


def current_stamp() -> str:
    """The change stamp: the one read when the request being served began, else one cache
    read. A missing one (a new or emptied cache) is made. "" when the cache keeps nothing
    (dummy://): then nothing may be kept under it.

    One stamp per request, read before any row: whatever the request computes is from rows at
    least as new as its stamp, so nothing is kept under a stamp newer than its rows (a save that
    commits while a page is being rendered moves the stamp past what that page keeps)."""
    if (stamp := _request_stamp.get()) is not None:
        return stamp
    return _shared_stamp()


def _shared_stamp() -> str:
    """One read: the stamp comes with the record of the change that set it (bump_stamp), so
    the first request after a change need not read that record apart (a round trip to Redis,
    a file opened) to know what the change touched; and with the epoch, in the same round trip.

    A stamp of another epoch than the current one is not used: a process that took its
    number in an epoch just replaced (the cache emptied, its count lost) writes it last, after
    changes recorded in the new epoch only. Values kept at the old epoch's earlier stamps would
    read that number's record alone and miss those changes. A new change is recorded instead
    (everything moved), in the current epoch.

    Nor is a stamp behind the count of its epoch: two writers that took numbers 5 and 6 may
    write the stamp in the other order, leaving 5 while change 6 is recorded. A value kept at
    4 would read change 5's record alone and miss change 6 until the next change. So the count
    is read in the same round trip (of the epoch this process saw last, nearly always the
    current one; apart, once, by a process that has not seen it), and a stamp behind it is
    taken at the count's number: the records up to it
    are read as any others, and a record not yet written (its writer between the count and the
    record) means the value is made anew."""
    epoch_seen = _epoch_seen
    keys = [STAMP_KEY, caches.EPOCH_KEY]
    if epoch_seen is not None:
        keys.append(caches.change_counter_key(epoch_seen))
    found = caches.read_many(keys)
    stored = found.get(STAMP_KEY)
    if stored is None or not _of_epoch(stored, found.get(caches.EPOCH_KEY)):
        stored = bump_stamp()
        found = {}
    if not isinstance(stored, tuple):
        return str(stored)  # a stamp without a record (the numbering lost)
    stamp, change = stored
    if (version := _version(stamp)) is None:
        return str(stamp)
    _changes_read.setdefault(caches.change_key(*version), change)
    _remember_epoch(version[0])
    counter = caches.change_counter_key(version[0])
    # A process that has not seen this epoch yet (just started, or the epoch just replaced)
    # reads its count apart: one more round trip, once.
    count = found.get(counter) if version[0] == epoch_seen else caches.read(counter)
    if isinstance(count, int) and count > version[1]:
        return f"{version[0]}.{count}"
    return str(stamp)


# The epoch of the last stamp this process read: its count is read beside the stamp.
_epoch_seen: str | None = None


def _remember_epoch(epoch: str) -> None:
    global _epoch_seen
    _epoch_seen = epoch


def _of_epoch(stored: object, epoch: str | None) -> bool:
    """Whether a stored stamp may be used now: it is of the current `epoch`, or it has no
    record (a random token, with which nothing kept is trusted)."""
    if not isinstance(stored, tuple):
        return True
    version = _version(stored[0])
    return version is None or version[0] == epoch


@dataclass(frozen=True)
class Change:
    """What one committed transaction touched, and when."""

    at: float
    scopes: frozenset[str]


def bump_stamp(scopes: Iterable[str] | None = None) -> tuple[str, Change] | str:
    """A new stamp: every page cached so far is out of date, and so is every kept value that
    follows one of `scopes` (all of them when None).

    The stamp is "<epoch>.<number>": changes are numbered, and what change n touched is kept
    under its number, so a value kept at change m is known still good at change n when none of
    m+1 … n touched its scopes. The epoch is new whenever the numbering is lost (an emptied
    cache, or its count alone culled or evicted): then nothing kept before is trusted.
    Gives what it stored under STAMP_KEY."""
    touched = frozenset(scopes) if scopes is not None else frozenset({EVERYTHING})
    epoch = caches.read(caches.EPOCH_KEY)
    new_epoch = False
    if epoch is None:
        new_epoch = caches.add(caches.EPOCH_KEY, secrets.token_hex(4), None)
        epoch = caches.read(caches.EPOCH_KEY)
    if epoch:
        for _ in range(10):
            counter = caches.change_counter_key(epoch)
            try:
                number = caches.increment(counter)
            except ValueError:
                if not new_epoch:
                    # The epoch's count was lost while the epoch stayed (a culled file, an
                    # evicted key): counting again from 1 would give numbers already given, and
                    # a value kept at a higher one would look newer than the changes after it.
                    # A new epoch instead, which trusts nothing kept before.
                    epoch, new_epoch = secrets.token_hex(4), True
                    caches.write(caches.EPOCH_KEY, epoch, None)
                caches.add(caches.change_counter_key(epoch), 0, None)
                continue
            # Another process given the same number (files count by a read and a write) loses
            # the claim and takes the next one.
            change = Change(time.time(), touched)
            if caches.add(caches.change_key(epoch, number), change, CHANGE_RECORD_SECONDS):
                stamp = (f"{epoch}.{number}", change)
                caches.write(STAMP_KEY, stamp, None)
                return stamp
    token = secrets.token_hex(8)
    caches.write(STAMP_KEY, token, None)  # no record: nothing kept is trusted
    return token


def _version(stamp: str) -> tuple[str, int] | None:
    epoch, _, number = stamp.partition(".")
    return (epoch, int(number)) if number.isdigit() else None


# Changes already read by this process: they never change once written.
_changes_read: dict[str, Change] = {}


def changes_between(old: str, new: str) -> list[Change] | None:
    """The changes made after stamp `old` up to stamp `new`; None when they are not all known
    (another epoch, too many, a record lost)."""
    before, after = _version(old), _version(new)
    # Another epoch, or a number lower than the value's (a stamp from a count started again):
    # not known.
    if before is None or after is None or before[0] != after[0] or after[1] < before[1]:
        return None
    epoch, first, last = after[0], before[1] + 1, after[1]
    if last - first >= MOST_CHANGES_READ:
        return None
    keys = [caches.change_key(epoch, number) for number in range(first, last + 1)]
    # A local copy: another thread may empty the shared one meanwhile.
    known = {key: change for key in keys if (change := _changes_read.get(key)) is not None}
    if missing := [key for key in keys if key not in known]:
        if len(_changes_read) > 10 * MOST_CHANGES_READ:
            _changes_read.clear()
        read = caches.read_many(missing)
        _changes_read.update(read)
        known.update(read)
    if any(key not in known for key in keys):
        return None
    return [known[key] for key in keys]


def first_change_of(
    scopes: frozenset[str] | None,
    old: str,
    new: str,
    *,
    apart_from: Callable[[frozenset[str]], bool] | None = None,
) -> tuple[bool, float | None]:
    """Whether a value kept at stamp `old` that follows `scopes` (everything when None) is out
    of date at stamp `new`, and when the first change that moved it was made (None if unknown).
    `apart_from(change's scopes)`: true for changes that do not move the value although they
    name its scopes (a write of one paper alone, publications.models.only_paper_written: a
    paper's related papers leave the paper itself out)."""
    if old == new:
        return False, None
    changes = changes_between(old, new)
    if changes is None:
        return True, None
    for change in changes:
        if apart_from is not None and apart_from(change.scopes):
            continue
        if scopes is None or EVERYTHING in change.scopes or change.scopes & scopes:
            return True, change.at
    return False, None


def note_change(*, using: str = DEFAULT_DB_ALIAS, scopes: Iterable[str] | None = None) -> None:
    """Rows of the site changed: bump the stamp once the transaction commits, once per
    transaction however many rows it wrote, with every scope its writes named (`scopes`;
    None: it may have touched anything).

    After the commit, not before: a page rendered between a bump and the commit would show the
    old rows and be cached under the new stamp. Outside a transaction `on_commit` runs at once;
    a rolled-back transaction (or savepoint) drops the bump with the rows.
    """
    named = set(scopes) if scopes is not None else {EVERYTHING}
    pending = _pending_commit(using)
    if pending is not None:
        pending.scopes.update(named)
    else:
        transaction.on_commit(_Commit(named), using=using)


class _Commit:
    """The bump a transaction makes when it commits, with the scopes its writes named. The
    scopes live on the callback, so a rolled-back transaction drops them with it (they once
    stayed on the connection and rode along with the next transaction's bump)."""

    def __init__(self, scopes: set[str]):
        self.scopes = scopes

    def __call__(self) -> None:
        bump_stamp(self.scopes)
        warm_after_answer(self.scopes)


def _pending_commit(using: str = DEFAULT_DB_ALIAS) -> _Commit | None:
    """The open transaction's bump, when it has written rows."""
    connection = connections[using]
    if not connection.in_atomic_block:
        return None
    for _, callback, *_ in connection.run_on_commit:
        if isinstance(callback, _Commit):
            return callback
    return None


def bump_pending(using: str = DEFAULT_DB_ALIAS) -> bool:
    """Whether the open transaction has written rows and will bump the stamp when it commits.
    A page asked for inside it (a test's client, wrapped in the test's transaction) must not be
    cached nor validated: the stamp has not moved yet."""
    return _pending_commit(using) is not None


# What a write changed of a row, told to the row's `cache_scopes()` while it is asked
# (written_fields): a model may name narrower scopes for a write that left some fields alone.
_WRITTEN = "_site_cache_written_fields"
# Told for a row added or deleted, or whose many-to-many rows changed: any of its fields.
WHOLE_ROW = frozenset({EVERYTHING})


def written_fields(instance: models.Model) -> frozenset[str] | None:
    """The fields the write being noted changed of `instance`, as the write said: a bulk
    update's fields (by name or column), WHOLE_ROW for a row added or deleted or whose
    many-to-many rows changed, a save's `update_fields`; None for a plain save, which leaves
    it to the row to compare what it holds with what it loaded."""
    written: frozenset[str] | None = instance.__dict__.get(_WRITTEN)
    return written


def wrote_any_of(instance: models.Model, fields: Iterable[str]) -> bool | None:
    """Whether the write being noted changed any of `fields` of `instance` (names or
    columns: "venue" or "venue_id"), as the write said (written_fields); None when it did not
    say (a plain save: the row compares what it holds with what was stored)."""
    written = written_fields(instance)
    if written is None:
        return None
    names = {name.removesuffix("_id") for name in fields}
    return written == WHOLE_ROW or any(name.removesuffix("_id") in names for name in written)


def _scopes_of(instance: Any, written: frozenset[str] | None) -> set[str]:
    """`instance.cache_scopes()`, told `written` (written_fields) while it is asked."""
    if written is not None:
        instance.__dict__[_WRITTEN] = written
    try:
        scopes: set[str] = instance.cache_scopes()
        return scopes
    finally:
        instance.__dict__.pop(_WRITTEN, None)


def model_changed(sender: Any, **kwargs: Any) -> None:
    """post_save, post_delete and m2m_changed of any model: the scopes the row names
    (`cache_scopes()` on its model, told what the write changed: written_fields), else
    everything."""
    if kwargs.get("action", "post_").startswith("pre_"):
        return
    instance = kwargs.get("instance")
    if hasattr(sender, "instance_type"):  # a history row: the save it copies names its scopes
        scopes: Iterable[str] | None = ()
    elif hasattr(instance, "cache_scopes"):
        written: frozenset[str] | None = None
        if "action" in kwargs or kwargs.get("created") or "created" not in kwargs:
            written = WHOLE_ROW  # an m2m change, a row added, a row deleted
        elif kwargs.get("update_fields"):
            written = frozenset(kwargs["update_fields"])
        scopes = _scopes_of(instance, written)
        if kwargs.get("reverse"):
            scopes = _with_other_side(scopes, kwargs.get("model"), kwargs.get("pk_set"))
    else:
        scopes = None
    note_change_of(sender, using=kwargs.get("using") or DEFAULT_DB_ALIAS, scopes=scopes)


def _with_other_side(scopes: set[str], model: Any, pks: Iterable[Any] | None) -> set[str] | None:
    """A many-to-many change made from the side that does not declare the field (a talk linked
    from its paper: `paper.events.add(talk)`) changed the rows of the other side too: their
    scopes are added (everything when that model names none, or all its rows were cleared)."""
    if pks is None or model is None or not hasattr(model, "cache_scopes"):
        return None
    return scopes.union(*(_scopes_of(model(pk=pk), WHOLE_ROW) for pk in pks))


def shown_on_pages(model: type[models.Model]) -> bool:
    """Whether rows of `model` may show on a public page: every model but those listed in
    settings.SITE_CACHE_IGNORED_MODELS (sessions, logins, the admin's log, task queues)."""
    ignored = settings.SITE_CACHE_IGNORED_MODELS
    return model._meta.app_label not in ignored and model._meta.label not in ignored


def note_change_of(
    model: type[models.Model],
    *,
    using: str = DEFAULT_DB_ALIAS,
    scopes: Iterable[str] | None = None,
) -> None:
    """Rows of `model` were written: `note_change`, unless no public page shows them. The one
    rule behind both the model signals and SiteQuerySet's bulk writes (which name no scopes:
    they may have touched anything)."""
    if shown_on_pages(model):
        note_change(using=using, scopes=scopes)


class SiteQuerySet(models.QuerySet[Any]):
    """The QuerySet (and, through `as_manager()`, the manager) of every model a public page
    reads: its bulk writes move the site's change stamp as `save()`, `delete()` and m2m changes
    do through signals (`model_changed`), once the transaction commits. Without it an
    `update()` or a `bulk_update()` (undoing a split, renumbering authors) leaves every cached
    page showing the old rows until some unrelated save. The system check directory.E003 fails
    for a site model whose default manager is not built on it.

    `RenderedMarkdownQuerySet` (and so `PublishableQuerySet`) is built on it.
    Importable from base.querysets beside the other QuerySets models build on."""

    def _noted(self, written: int, scopes: Iterable[str] | None = None) -> int:
        if written:
            note_change_of(self.model, using=self.db, scopes=scopes)
        return written

    def _named_scopes(self, rows: list[Any] | None, fields: Iterable[str]) -> set[str] | None:
        """The scopes the written `rows` name (`cache_scopes()`, asked after the write), for a
        few rows whose relations stay (a paper's search text); else None: anything."""
        if rows is None or not hasattr(self.model, "cache_scopes"):
            return None
        if any(self.model._meta.get_field(name).is_relation for name in fields):
            return None
        written = frozenset(fields)
        return set().union(*(_scopes_of(row, written) for row in rows))

    def update(self, **kwargs: Any) -> int:
        few = None
        if hasattr(self.model, "cache_scopes") and not self.query.is_sliced:
            few = list(self[: FEW_ROWS_SCOPED + 1])
        written = super().update(**kwargs)
        rows = few if few is not None and len(few) <= FEW_ROWS_SCOPED else None
        return self._noted(written, self._named_scopes(rows, kwargs) if written else None)

    update.alters_data = True  # type: ignore[attr-defined]

    def bulk_update(self, objs: Any, fields: Any, batch_size: int | None = None) -> int:
        objs = list(objs)
        written = super().bulk_update(objs, fields, batch_size=batch_size)
        rows = objs if len(objs) <= FEW_ROWS_SCOPED else None
        return self._noted(written, self._named_scopes(rows, fields) if written else None)

    bulk_update.alters_data = True  # type: ignore[attr-defined]

    def bulk_create(self, objs: Any, *args: Any, **kwargs: Any) -> list[Any]:
        created = super().bulk_create(objs, *args, **kwargs)
        self._noted(len(created))
        return created

    bulk_create.alters_data = True  # type: ignore[attr-defined]

    def delete(self) -> tuple[int, dict[str, int]]:
        # Deletes send post_delete for each row while any receiver listens (model_changed
        # does); this holds too if Django takes its fast path, which sends none.
        deleted, per_model = super().delete()
        self._noted(deleted)
        return deleted, per_model

    delete.alters_data = True  # type: ignore[attr-defined]
    delete.queryset_only = True  # type: ignore[attr-defined]

    def _raw_delete(self, using: Any) -> int:
        # The deletion collector's fast path for related rows, which sends no signal.
        deleted = super()._raw_delete(using)
        if deleted:
            note_change_of(self.model, using=using)
        return deleted

    _raw_delete.alters_data = True  # type: ignore[attr-defined]


def kept(
    name: str,
    parts: object,
    compute: Callable[[], T],
    *,
    scopes: Iterable[str] | None = None,
    lags: bool = False,
    apart_from: Callable[[frozenset[str]], bool] | None = None,
    shows: Callable[[T], Iterable[str]] | None = None,
) -> tuple[T, str]:
    """`cached`, with a digest of the value: what a fragment drawn from it is kept under
    ({% cache %}'s version), so that counts made anew but the same (a title edited) keep the
    fragments drawn from them.

    `lags` (counts only): a value out of date for at most settings.SITE_CACHE_LAG_SECONDS
    since the write that moved it is served as it is while the request is answered, and
    computed anew once the answer is sent (request_finished), by one process (a claim in the
    shared cache); the page showing it is neither kept nor given an ETag. So the first visitor
    after an edit does not wait for counts over 200,000 papers.

    `shows(value)`: the scopes of other rows the value shows, known once it is made (a
    profile's advisors, each `person:<pk>`): it follows them too, kept beside it."""
    found = _stored(name, parts)
    if found is None:
        return compute(), "now-" + secrets.token_hex(8)
    stamp, key, stored = found
    if stored is not None:
        made, value, digest, shown = stored
        follows = frozenset(scopes) | shown if scopes is not None else None
        moved, since = first_change_of(follows, made, stamp, apart_from=apart_from)
        if not moved:
            return value, digest
        if (
            lags
            and since is not None
            and time.time() - since <= settings.SITE_CACHE_LAG_SECONDS
            and (deferred := getattr(_request_work, "deferred", None)) is not None
        ):
            _request_work.lagging = True
            claim = caches.rebuild_claim_key(key)
            if caches.add(claim, True, settings.SITE_CACHE_LAG_SECONDS):
                deferred.append((key, claim, compute, shows))
            return value, digest
    value = compute()
    entry = _entry(stamp, value, shows)
    caches.write(key, entry, settings.SITE_CACHE_TIMEOUT)
    return value, entry[2]


def _value_only(
    keep: Callable[Concatenate[str, object, Callable[[], T], P], tuple[T, str]],
) -> Callable[Concatenate[str, object, Callable[[], T], P], T]:
    """`keep`, giving the value without its digest: `cached` is `kept` less the digest, with
    the same arguments."""

    def value(
        name: str, parts: object, compute: Callable[[], T], /, *args: P.args, **kwargs: P.kwargs
    ) -> T:
        return keep(name, parts, compute, *args, **kwargs)[0]

    return value


cached = _value_only(kept)
cached.__doc__ = """`compute()`, kept in the shared cache until a change of `scopes` (any change
    when None): an aggregate that would read a large part of the table (the facet counts of a
    filter, a member's co-authors), shared by every page that shows it and by every rendering
    of one, so that a page rendered anew costs about the same at 200,000 papers as at 2,000.
    `parts` names what the value depends on; its repr is the key. Kept with SITE_CACHE=0 too,
    which turns off whole pages only. `lags`, `shows`: see `kept`; `apart_from`: see
    `first_change_of`."""


def _stored(name: str, parts: object) -> tuple[str, str, Any] | None:
    """What `kept` and `updated` begin with: the stamp, the value's key and what is stored
    under it (None when absent, or read ahead: read_ahead); None when nothing may be kept now
    (a cache that keeps nothing, or a transaction that wrote and has not moved the stamp)."""
    stamp = current_stamp()
    key = caches.lasting_key(name, parts, release=release())  # KeyError: name it in REGISTRY
    if not stamp or bump_pending():
        return None
    ahead: dict[str, Any] = getattr(_request_work, "read_ahead", {})
    return stamp, key, ahead.pop(key) if key in ahead else caches.read(key)


# At most this many rows touched since a value was made are brought up to date in it (an
# `updated` value); more, and it is computed anew.
MOST_ROWS_UPDATED = 50


def ids_in(scopes: Iterable[str], kind: str) -> set[int]:
    """The row ids the scopes of one `kind` name ("paper:" gives 12 of "paper:12")."""
    return {int(scope.removeprefix(kind)) for scope in scopes if scope.startswith(kind)}


def rows_touched(follows: frozenset[str], old: str, new: str, *, kind: str) -> set[int] | None:
    """The rows (ids of `kind` scopes, "paper:") touched by the changes after stamp `old` up to
    `new` that moved a value following `follows`; None when one of them did not name its rows
    (a bulk write, a model naming no scope), when they are not all known, or when they touched
    more than MOST_ROWS_UPDATED."""
    if old == new:
        return set()
    changes = changes_between(old, new)
    if changes is None:
        return None
    touched: set[int] = set()
    for change in changes:
        if EVERYTHING in change.scopes:
            return None
        if change.scopes & follows:
            touched |= ids_in(change.scopes, kind)
    return touched if len(touched) <= MOST_ROWS_UPDATED else None


def updated(
    name: str,
    parts: object,
    compute: Callable[[], T],
    update: Callable[[T, set[int]], T | None],
    *,
    scopes: Iterable[str],
    kind: str = "paper:",
) -> T:
    """`cached`, for a value that can be brought up to date from the rows changed since it was
    made (the papers a few edits touched: `rows_touched`) at less cost than computing it anew:
    `update(value, touched ids)`, or None when it cannot (then `compute()`)."""
    found = _stored(name, parts)
    if found is None:
        return compute()
    stamp, key, stored = found
    value: T | None = None
    if stored is not None:
        made, old, _, _ = stored
        touched = rows_touched(frozenset(scopes), made, stamp, kind=kind)
        if touched == set():
            return cast(T, old)
        if touched is not None:
            value = update(old, touched)
    if value is None:
        value = compute()
    caches.write(key, _entry(stamp, value, None), settings.SITE_CACHE_TIMEOUT)
    return value


def _entry(
    stamp: str, value: T, shows: Callable[[T], Iterable[str]] | None
) -> tuple[str, T, str, frozenset[str]]:
    """What `kept` stores: the stamp it was made at, the value, its digest and the scopes of
    the other rows it shows."""
    return stamp, value, _digest(value), frozenset(shows(value)) if shows else frozenset()


def _digest(value: object) -> str:
    return hashlib.sha256(pickle.dumps(value, pickle.HIGHEST_PROTOCOL)).hexdigest()[:16]


# Per thread: the lagging values to compute once the request's answer is sent, and whether
# the answer showed one.
_request_work = threading.local()


def _begin_request(request: HttpRequest | None = None) -> None:
    _request_work.after_answer = []
    _request_work.deferred = []
    _request_work.lagging = False
    _request_work.read_ahead = {}
    # The request being served, whose address warm_after_answer renders the pages a save
    # changed at; none for a page being warmed, whose answer warms nothing.
    _request_work.request = None if request is None or WARMING in request.META else request
    _request_work.warm_scopes = None


def read_ahead(values: Iterable[tuple[str, object]]) -> None:
    """Read the kept values a page is about to ask `kept` for (each a name and its parts) in
    one round trip (`get_many`) rather than one each: a profile reads seven, each a round trip
    to Redis. Each is used once, by the request being served; one not kept is read as absent."""
    if not current_stamp() or bump_pending():
        return
    keys = [caches.lasting_key(name, parts, release=release()) for name, parts in values]
    found = caches.read_many(keys)
    _request_work.read_ahead = {key: found.get(key) for key in keys}


def showed_lagging_value() -> bool:
    return bool(getattr(_request_work, "lagging", False))


def after_answer(work: Callable[[], None]) -> None:
    """Do `work` once the request's answer is sent (request_finished), before the lagging
    values are computed: a write the answer does not need, such as keeping the page. Done at
    once outside a request (a management command)."""
    pending = getattr(_request_work, "after_answer", None)
    if pending is None:
        work()
    else:
        pending.append(work)


def _compute_deferred(**kwargs: Any) -> None:
    """request_finished: the answer is sent; do the writes it left (after_answer), then compute
    the lagging values it served."""
    writes = getattr(_request_work, "after_answer", None) or []
    deferred = getattr(_request_work, "deferred", None) or []
    _request_work.after_answer = None
    _request_work.deferred = None
    _request_work.read_ahead = {}
    _request_work.request = _request_work.warm_scopes = None
    for work in writes:
        try:
            work()
        except Exception:
            # The visitor has the answer; the page is made again on the next request.
            logger.exception("Keeping a page after its answer failed")
    for key, claim, compute, shows in deferred:
        try:
            stamp = _shared_stamp()  # before any row is read
            caches.write(key, _entry(stamp, compute(), shows), settings.SITE_CACHE_TIMEOUT)
        except Exception:
            # The visitor has the answer; the next request computes the value before answering.
            logger.exception("Counting %s anew after a change failed", key)
        finally:
            caches.forget(claim)


request_finished.connect(_compute_deferred, dispatch_uid="site_cache_compute_deferred")


# Pages warmed after a save ----------------------------------------------------------------

# In the environ of a page rendered by warm_after_answer.
WARMING = "lab.warming"
# The pages to render after a save that moved some scopes, most looked-at first: one function,
# registered by the app that serves them (pages/apps.py).
_pages_to_warm: list[Callable[[frozenset[str], int], list[str]]] = []


def warm_pages_with(pages: Callable[[frozenset[str], int], list[str]]) -> None:
    """Register `pages(scopes, most)`: the paths of at most `most` public pages that show what
    a change of `scopes` changed, most looked-at first (a paper's page, then its authors')."""
    _pages_to_warm[:] = [pages]


def _origin(request: HttpRequest) -> dict[str, Any]:
    """What a warmed page's request keeps of the request whose save it follows: the address it
    came to (host, port, scheme, script prefix, a proxy's headers), and nothing of the editor
    (no cookie, no credentials): the page is the one an anonymous visitor gets there."""
    keys = ["HTTP_HOST", "SERVER_NAME", "SERVER_PORT", "SCRIPT_NAME", "wsgi.url_scheme"]
    keys += ["HTTP_X_FORWARDED_HOST", "HTTP_X_FORWARDED_PORT"]
    if settings.SECURE_PROXY_SSL_HEADER:
        keys.append(settings.SECURE_PROXY_SSL_HEADER[0])
    return {key: request.META[key] for key in keys if key in request.META}


def warm_after_answer(scopes: Iterable[str]) -> None:
    """A transaction that a request made (an editor's save) committed, moving `scopes`: once
    its answer is sent, render the pages that show the change (`warm_pages_with`), at most
    settings.SITE_CACHE_WARM_PAGES of them, and keep them as a visitor's request would. So the
    first visitor of the paper an editor has just saved gets it from the cache, not rendered
    anew (issue 24). Nothing is warmed outside a request (an import, a command), for a page
    being warmed, nor when whole pages are not kept (SITE_CACHE off, DEBUG)."""
    request = getattr(_request_work, "request", None)
    most = settings.SITE_CACHE_WARM_PAGES
    if request is None or not (_pages_to_warm and most and settings.SITE_CACHE) or settings.DEBUG:
        return
    # One warming per request, of what all its transactions moved; which pages, once answered.
    if (moved := getattr(_request_work, "warm_scopes", None)) is not None:
        moved.update(scopes)
        return
    moved = _request_work.warm_scopes = set(scopes)
    after_answer(functools.partial(_warm, moved, _origin(request)))


@functools.cache
def _warming_handler() -> WSGIHandler:
    return WSGIHandler()


def _warm(scopes: set[str], origin: dict[str, Any]) -> None:
    """Ask this process's own handler for each page showing a change of `scopes`, as an
    anonymous visitor to `origin` would, so that the page cache keeps each answer (its write
    done at once: the request being warmed has no answer to wait for). A page that showed
    counts as they were before the change (lagging: not kept) is asked again once they are
    counted anew. Then the database connections are closed as at the end of a request."""
    most = settings.SITE_CACHE_WARM_PAGES
    paths = _pages_to_warm[0](frozenset(scopes), most)[:most]
    # The paths are reverse()'s, which begin with the script prefix (a site served under /lab/).
    script = origin.get("SCRIPT_NAME", "").rstrip("/")
    try:
        for path in paths:
            path = path.removeprefix(script) if script else path
            if _warm_one(path, origin) == "lagging":
                _warm_one(path, origin)
    finally:
        _close_old_connections()


def _warm_one(path: str, origin: dict[str, Any]) -> str:
    """One page asked for and kept (_warm); what the page cache said of it (CACHE_HEADER)."""
    path, _, query = path.partition("?")
    environ = {
        **origin,
        "REQUEST_METHOD": "GET",
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "SERVER_PROTOCOL": "HTTP/1.1",
        "wsgi.input": io.BytesIO(),
        "wsgi.errors": sys.stderr,
        WARMING: True,
    }
    try:
        response = _warming_handler().get_response(WSGIRequest(environ))
    finally:
        _compute_deferred()
    return str(response.get(CACHE_HEADER, ""))


def _close_old_connections() -> None:
    """Django's close_old_connections, which request_finished ran before the work done after
    the answer reopened them; never inside a transaction (a test's)."""
    for connection in connections.all(initialized_only=True):
        if not connection.in_atomic_block:
            connection.close_if_unusable_or_obsolete()


def unchanged_since(made: str, scopes: Iterable[str] | None) -> bool:
    """Whether a value made at stamp `made` that follows `scopes` (every change when None) is
    still good now: no change since touched its scopes, and the open transaction has written
    nothing (the stamp has not moved yet)."""
    if bump_pending():
        return False
    follows = frozenset(scopes) if scopes is not None else None
    return not first_change_of(follows, made, current_stamp())[0]


def lasting_key(name: str, parts: object) -> str:
    """The key of a value that outlives changes (the release and `parts` only): the latest copy
    of a slow document, served for a bounded time while it is made again, and the claim on
    making it."""
    return caches.lasting_key(name, parts, release=release())


class LocalCopies:
    """The most recently used values of one process, at most `settings.<size_setting>` of them.

    For what is read on every request and costs more to fetch from the shared cache (a file
    read, a network round trip and unpickling) than to keep: whole pages, a list's entries.
    Each copy follows scopes (every change when None): when a request brings a new stamp (a
    save on this or another app server), the copies whose scopes the changes since touched are
    dropped (all of them when those changes are not known), so a copy is valid exactly as long
    as one in the shared cache would be.
    """

    def __init__(self, size_setting: str):
        self.size_setting = size_setting
        self.values: OrderedDict[str, tuple[frozenset[str] | None, object]] = OrderedDict()
        self.stamp = ""
        self.lock = threading.Lock()

    def get_many(self, keys: list[str], *, stamp: str) -> dict[str, object]:
        with self.lock:
            self._catch_up(stamp)
            found = {key: self.values[key][1] for key in keys if key in self.values}
            for key in found:
                self.values.move_to_end(key)
        return found

    def set_many(
        self,
        values: Mapping[str, object],
        *,
        stamp: str,
        scopes: Callable[[str], Iterable[str] | None] = lambda key: None,
    ) -> None:
        with self.lock:
            self._catch_up(stamp)
            for key, value in values.items():
                follows = scopes(key)
                self.values[key] = (frozenset(follows) if follows is not None else None, value)
                self.values.move_to_end(key)
            size = getattr(settings, self.size_setting)
            while len(self.values) > size:
                self.values.popitem(last=False)

    def _catch_up(self, stamp: str) -> None:
        if stamp == self.stamp:
            return
        changes = changes_between(self.stamp, stamp)
        touched = set().union(*(change.scopes for change in changes)) if changes else set()
        if changes is None or EVERYTHING in touched:
            self.values.clear()
        elif touched:
            for key in [
                key
                for key, (follows, _) in self.values.items()
                if follows is None or follows & touched
            ]:
                del self.values[key]
        self.stamp = stamp


# One store per kind of value kept by cached_each, so that a large export's BibTeX entries do
# not push the list entries out.
_kept: dict[str, LocalCopies] = {}


def cached_each(
    name: str,
    *,
    parts: object,
    ids: Iterable[K],
    render: Callable[[list[K]], dict[K, str]],
    size_setting: str = "SITE_CACHE_LOCAL_ENTRIES",
    scopes: Callable[[K], Iterable[str] | None] = lambda id: None,
) -> dict[K, str]:
    """`render(ids)`, each id's value kept in this process's memory until a change of its
    `scopes(id)` (any change when None; a paper's entry follows `paper:<pk>`): the entries of a
    list (a paper's <li> with its citation) or of an export (its BibTeX), which every list or
    export showing the paper shares, so that a page rendered anew renders only the entries no
    list has shown since they changed. `render` is given the ids not kept, once, and may leave
    out an id whose row is gone; the answer is in the order of `ids`. `parts` names what else a
    value depends on (the site's address). Kept with SITE_CACHE=0 too, as `cached` values are;
    never with DEBUG on, so that a template edited under runserver shows at once. `scopes` is
    asked after `render`, which may note what it read.

    In each process's memory rather than the shared cache: 50 reads from a file cache cost
    more than the page they would spare, and the file cache lists its folder on every write.
    Kept as UTF-8 (a str with one curly quote takes two bytes per character), at most
    `settings.<size_setting>` values of this `name`.
    """
    ids = list(dict.fromkeys(ids))
    stamp = current_stamp()
    keep = _keeps_here(stamp)
    store = _local_store(name, size_setting)
    keys = {id: caches.entry_key(name, parts, id, release=language_release()) for id in ids}
    kept = store.get_many(list(keys.values()), stamp=stamp) if keep else {}
    found = {id: cast(bytes, kept[keys[id]]).decode() for id in ids if keys[id] in kept}
    if missing := [id for id in ids if id not in found]:
        rendered = render(missing)
        if keep:
            new = {keys[id]: value.encode() for id, value in rendered.items()}
            ids_of = {keys[id]: id for id in rendered}
            store.set_many(new, stamp=stamp, scopes=lambda key: scopes(ids_of[key]))
        found.update(rendered)
    return {id: found[id] for id in ids if id in found}


def kept_block(
    name: str,
    template_name: str,
    row: models.Model,
    *,
    as_name: str,
    scopes: Iterable[str],
    loaded: object = (),
    **values: object,
) -> str:
    """One repeated block of a page (a person's card, a news entry): `template_name` rendered
    with `row` (as `as_name`) and `values`, and nothing else of the page's context; kept in this
    process's memory per row, `values` and `loaded` (what the row came with, when that changes
    the block: the related rows a list prefetched) until a change of `scopes`, as cached_each
    keeps a paper's entry. So a page rendered anew after an edit elsewhere (a paper's title) renders
    only the blocks the edit touched. Never kept with DEBUG on."""

    def render(ids: list[Any]) -> dict[Any, str]:
        return {row.pk: get_template(template_name).render({as_name: row, **values})}

    rendered = cached_each(
        name,
        # What the block is drawn from besides its row (str: a translated heading's repr is not
        # the same twice).
        parts=(
            template_name,
            loaded,
            *((key, str(value)) for key, value in sorted(values.items())),
        ),
        ids=[row.pk],
        render=render,
        scopes=lambda pk: scopes,
    )
    return mark_safe(rendered[row.pk])


def kept_here(name: str, compute: Callable[[], T], *, scopes: Iterable[str] | None) -> T:
    """`compute()`, kept in this process's memory until a change of `scopes` (any change when
    None): a small value that every page reads (the lab's row), which costs a round trip to the
    database, or to the shared cache, on each request otherwise. Kept pickled, so that no
    request sees what another did to its copy; as `cached_each`, never with DEBUG on nor in a
    transaction that wrote."""
    stamp = current_stamp()
    if not _keeps_here(stamp):
        return compute()
    store = _local_store(name, "SITE_CACHE_LOCAL_ENTRIES")
    key = caches.entry_key(name, None, "", release=release())
    if (data := store.get_many([key], stamp=stamp).get(key)) is not None:
        kept_value: T = pickle.loads(cast(bytes, data))
        return kept_value
    value = compute()
    data = pickle.dumps(value, pickle.HIGHEST_PROTOCOL)
    store.set_many({key: data}, stamp=stamp, scopes=lambda key: scopes)
    return value


def _keeps_here(stamp: str) -> bool:
    """Whether a value may be kept in this process's memory now: the cache keeps values (a
    stamp), no template is being edited (DEBUG), the open transaction has written nothing."""
    return bool(stamp) and not settings.DEBUG and not bump_pending()


def _local_store(name: str, size_setting: str) -> LocalCopies:
    return _kept.get(name) or _kept.setdefault(name, LocalCopies(size_setting))


def fragment_timeout() -> int:
    """How long `{% cache %}` keeps a part of a page: not at all under DEBUG (a template being
    edited shows on the next reload) nor inside a transaction that wrote (its stamp has not
    moved yet)."""
    return 0 if settings.DEBUG or bump_pending() else settings.SITE_CACHE_TIMEOUT


@functools.cache
def release() -> str:
    """The code's version, so a deploy never serves a page rendered by the templates before it:
    settings.SITE_RELEASE, else a digest of the project's own source, templates, static files and
    translations (the same on every app server that runs the same code)."""
    if settings.SITE_RELEASE:
        return settings.SITE_RELEASE
    base = Path(settings.BASE_DIR)
    roots = {Path(config.path) for config in apps.get_app_configs()}
    templates: list[dict[str, Any]] = settings.TEMPLATES
    roots |= {Path(folder) for template in templates for folder in template["DIRS"]}
    roots |= {Path(folder) for folder in settings.STATICFILES_DIRS}
    # The translations: a corrected Chinese string shows on the next request after a deploy.
    roots |= {Path(folder) for folder in settings.LOCALE_PATHS}
    digest = hashlib.sha256()
    for root in sorted(root for root in roots if root.is_relative_to(base)):
        for path in sorted(root.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(base)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def address_language(request: HttpRequest) -> str:
    """The language a page's address asks for (/zh-hans/... ), else the site's default: known
    before any middleware below the page cache has run, so a page kept or validated for one
    language is never given for another (docs/decisions/languages.md)."""
    return translation.get_language_from_path(request.path_info) or settings.LANGUAGE_CODE


def page_key(request: HttpRequest, stamp: str) -> str:
    language = address_language(request)
    return caches.page_key(request, release=f"{release()}-{language}", stamp=stamp)


def etag(stamp: str, request: HttpRequest) -> str:
    return caches.etag(release=f"{release()}-{address_language(request)}", stamp=stamp)


def language_release() -> str:
    """The code's version and the active language: what a part of a page written in words
    (a `{% cache %}` fragment, a list's entry) is kept under, so that the English copy is never
    shown on a Chinese page nor the reverse."""
    return f"{release()}-{translation.get_language() or settings.LANGUAGE_CODE}"


class SiteCacheMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    @property
    def local(self) -> LocalCopies:
        """The most recently used pages, pickled, in this process (see cached_page): one store
        for every handler of the process, the one that warms pages after a save included."""
        return _local_store("site-page-local", "SITE_CACHE_LOCAL_PAGES")

    def __call__(self, request: HttpRequest) -> HttpResponse:
        token = _request_stamp.set(_shared_stamp())
        _begin_request(request)
        try:
            return self.respond(request)
        finally:
            _request_stamp.reset(token)

    def respond(self, request: HttpRequest) -> HttpResponse:
        if not self.is_public(request):
            response = self.get_response(request)
            if settings.SESSION_COOKIE_NAME in request.COOKIES:
                keep_private(response)
            return response
        if not settings.SITE_CACHE or bump_pending():
            return self.get_response(request)

        stamp = current_stamp()
        validator = etag(stamp, request)
        if validator in _etags(request.headers.get("If-None-Match", "")):
            return self.not_modified(validator)
        key = page_key(request, stamp) if request.method == "GET" else None
        if key is not None and (cached := self.cached_page(key, stamp)) is not None:
            cached[CACHE_HEADER] = "hit"
            return cached
        response = self.get_response(request)
        if showed_lagging_value():
            # Counts shown as they were before a change: neither kept nor validated, so the
            # next visitor gets them counted anew.
            response[CACHE_HEADER] = "lagging"
        elif self.is_cacheable(response):
            lifetime = seconds_true(response)
            # A view that lets browsers keep its answer a while (robots.txt for a day, the
            # identity's stylesheet) gets no ETag of the stamp: a 304, answered from the stamp
            # before any view runs, could not repeat its Cache-Control.
            if lifetime is None and not get_max_age(response):
                response["ETag"] = validator
            response.headers.pop("Last-Modified", None)
            patch_vary_headers(response, ["Cookie"])
            if "Cache-Control" not in response:
                # Kept by browsers and proxies, but asked again each time: cheap with the ETag.
                patch_cache_control(response, public=True, no_cache=True)
            # A streamed answer (a large export) is validated like any page, but not kept.
            if key is not None and not response.streaming and lifetime is None:
                response[CACHE_HEADER] = "miss"
                self.keep(key, response, stamp, settings.SITE_CACHE_TIMEOUT, here=True)
            elif key is not None and not response.streaming and lifetime:
                response[CACHE_HEADER] = "miss"
                self.keep(key, response, stamp, min(lifetime, settings.SITE_CACHE_TIMEOUT))
        return response

    def keep(
        self, key: str, response: HttpResponse, stamp: str, timeout: int, *, here: bool = False
    ) -> None:
        """Keep the page in the shared cache, and in this process's copies too when `here`:
        pickled now, as it is answered, and written once the answer is sent (after_answer), so
        that the first visitor after a change does not wait for the writes. The copy says
        "miss" as the answer does; a copy read back says "hit" (cached_page)."""
        data = pickle.dumps(response, pickle.HIGHEST_PROTOCOL)

        def write() -> None:
            caches.write(key, data, timeout)
            if here:
                self.local.set_many({key: data}, stamp=stamp)

        after_answer(write)

    def cached_page(self, key: str, stamp: str) -> HttpResponse | None:
        """From this process's own copies first, then from the shared cache.

        A page of 50 papers with their Cite blocks weighs 200 KB: reading it from a file cache
        (or Redis) and decompressing it costs more than whitenoise's whole answer for a static
        file.
        """
        if (data := self.local.get_many([key], stamp=stamp).get(key)) is not None:
            page: HttpResponse = pickle.loads(cast(bytes, data))
            return page
        # Pickled bytes; any other value (a page kept by code before this, under a release
        # pinned by SITE_RELEASE across the deploy) is a miss, and is written over.
        if not isinstance(shared := caches.read(key), bytes):
            return None
        response: HttpResponse = pickle.loads(shared)
        # A page true until some time is kept in the shared cache only, which expires it.
        if seconds_true(response) is None:
            self.local.set_many({key: shared}, stamp=stamp)
        return response

    @staticmethod
    def is_public(request: HttpRequest) -> bool:
        """A visitor's GET or HEAD of a page that is the same for every visitor."""
        return (
            request.method in ("GET", "HEAD")
            and settings.SESSION_COOKIE_NAME not in request.COOKIES
            and not request.path.startswith(tuple(settings.SITE_CACHE_EXCLUDED_PATHS))
        )

    @staticmethod
    def is_cacheable(response: HttpResponse) -> bool:
        """A 200 that sets no cookie and does not ask to stay private or uncached: validated by
        the stamp, and kept too when it is whole (not streamed)."""
        control = response.get("Cache-Control", "").lower()
        vary = {word.strip().lower() for word in response.get("Vary", "").split(",")} - {""}
        return (
            response.status_code == 200
            and not response.cookies
            and not any(word in control for word in ("private", "no-store", "no-cache"))
            and vary <= {"cookie"}
        )

    @staticmethod
    def not_modified(validator: str) -> HttpResponse:
        response = HttpResponseNotModified()
        response["ETag"] = validator
        patch_vary_headers(response, ["Cookie"])
        patch_cache_control(response, public=True, no_cache=True)
        return response


def true_until(response: HttpResponse, moment: datetime.datetime | None) -> None:
    """The page changes at `moment` with time, not with a write (an upcoming event becomes a
    past one): SiteCacheMiddleware keeps it no longer than that (`Expires`), in the shared
    cache only (this process's copies do not expire), and gives it no ETag (a 304 is answered
    from the stamp alone, which passing time does not move). None: true until the next write.
    """
    if moment is not None:
        response["Expires"] = http_date(moment.timestamp())


def seconds_true(response: HttpResponse) -> int | None:
    """How many seconds more a page marked by `true_until` stays true (0 once it is not), or
    None for a page that changes only with writes."""
    if "Expires" not in response:
        return None
    moment = parse_http_date_safe(response["Expires"])
    return 0 if moment is None else max(0, int(moment - time.time()))


def keep_private(response: HttpResponse) -> None:
    """A staff member's answer (a draft preview, an edit link) stays in their browser only."""
    response.headers.pop("ETag", None)
    response.headers.pop("Last-Modified", None)
    patch_cache_control(response, private=True, no_store=True)


def _etags(header: str) -> set[str]:
    """The ETags of an If-None-Match header; a strong one matches its weak form too."""
    tags = {tag.strip() for tag in header.split(",")} - {""}
    return tags | {f"W/{tag}" for tag in tags if not tag.startswith("W/")}
