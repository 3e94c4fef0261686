"""Public pages kept whole in Django's cache, and answered "304 Not Modified" when unchanged.

Every public page, feed and export shows only what staff saved, so one site-wide **change
stamp** says whether any of them may have changed: a random token in the shared cache, replaced
after any transaction that saved or deleted a row of the site (`note_change`, connected to every
model's signals in `directory.apps`). A page's ETag is the code's release and the stamp; its
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
(`directory.querysets.SiteQuerySet`, enforced by the system check directory.E003); raw SQL must
call `note_change()` itself.
"""

import functools
import hashlib
import pickle
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Mapping
from contextvars import ContextVar
from pathlib import Path
from typing import Any, TypeVar, cast
from urllib.parse import urlencode

from django.apps import apps
from django.conf import settings
from django.core.cache import cache
from django.db import DEFAULT_DB_ALIAS, connections, models, transaction
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_cache_control, patch_vary_headers

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)

STAMP_KEY = "site-stamp"
PAGE_KEY = "site-page"
# Told to tests and the benchmark: whether the page came from the cache.
CACHE_HEADER = "X-Site-Cache"


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
    stamp = cache.get(STAMP_KEY)
    if stamp is None:
        cache.add(STAMP_KEY, secrets.token_hex(8), timeout=None)
        stamp = cache.get(STAMP_KEY) or ""
    return stamp


def bump_stamp() -> None:
    """A new stamp: every page cached so far is out of date."""
    cache.set(STAMP_KEY, secrets.token_hex(8), timeout=None)


def note_change(*, using: str = DEFAULT_DB_ALIAS) -> None:
    """Rows of the site changed: bump the stamp once the transaction commits, once per
    transaction however many rows it wrote.

    After the commit, not before: a page rendered between a bump and the commit would show the
    old rows and be cached under the new stamp. Outside a transaction `on_commit` runs at once;
    a rolled-back transaction (or savepoint) drops the bump with the rows.
    """
    if _bump_pending(using):
        return
    transaction.on_commit(bump_stamp, using=using)


def _bump_pending(using: str = DEFAULT_DB_ALIAS) -> bool:
    """Whether the open transaction has written rows and will bump the stamp when it commits.
    A page asked for inside it (a test's client, wrapped in the test's transaction) must not be
    cached nor validated: the stamp has not moved yet."""
    connection = connections[using]
    return connection.in_atomic_block and any(
        callback is bump_stamp for _, callback, *_ in connection.run_on_commit
    )


def model_changed(sender, **kwargs) -> None:
    """post_save, post_delete and m2m_changed of any model."""
    if kwargs.get("action", "post_").startswith("pre_"):
        return
    note_change_of(sender, using=kwargs.get("using") or DEFAULT_DB_ALIAS)


def shown_on_pages(model: type[models.Model]) -> bool:
    """Whether rows of `model` may show on a public page: every model but those listed in
    settings.SITE_CACHE_IGNORED_MODELS (sessions, logins, the admin's log, task queues)."""
    ignored = settings.SITE_CACHE_IGNORED_MODELS
    return model._meta.app_label not in ignored and model._meta.label not in ignored


def note_change_of(model: type[models.Model], *, using: str = DEFAULT_DB_ALIAS) -> None:
    """Rows of `model` were written: `note_change`, unless no public page shows them. The one
    rule behind both the model signals and SiteQuerySet's bulk writes."""
    if shown_on_pages(model):
        note_change(using=using)


class SiteQuerySet(models.QuerySet):
    """The QuerySet (and, through `as_manager()`, the manager) of every model a public page
    reads: its bulk writes move the site's change stamp as `save()`, `delete()` and m2m changes
    do through signals (`model_changed`), once the transaction commits. Without it an
    `update()` or a `bulk_update()` (undoing a split, renumbering authors) leaves every cached
    page showing the old rows until some unrelated save. The system check directory.E003 fails
    for a site model whose default manager is not built on it.

    `RenderedMarkdownQuerySet` (and so `PublishableQuerySet`) is built on it.
    Importable from directory.querysets beside the other QuerySets models build on."""

    def _noted(self, written: int) -> int:
        if written:
            note_change_of(self.model, using=self.db)
        return written

    def update(self, **kwargs: Any) -> int:
        return self._noted(super().update(**kwargs))

    update.alters_data = True  # type: ignore[attr-defined]

    def bulk_update(self, objs: Any, fields: Any, batch_size: int | None = None) -> int:
        return self._noted(super().bulk_update(objs, fields, batch_size=batch_size))

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


def cached(name: str, parts: object, compute: Callable[[], T]) -> T:
    """`compute()`, kept in the cache until the next change: an aggregate that would read a
    large part of the table (the facet counts of a filter, a member's co-authors), shared by
    every page that shows it and by every rendering of one, so that a page rendered anew costs
    about the same at 200,000 papers as at 2,000. `parts` names what the value depends on; its
    repr is the key. Kept with SITE_CACHE=0 too, which turns off whole pages only."""
    if (key := value_key(name, parts)) is None:
        return compute()
    return cast(T, cache.get_or_set(key, compute, settings.SITE_CACHE_TIMEOUT))


def value_key(name: str, parts: object) -> str | None:
    """The shared cache's key for a value kept until the next change (`cached`, a CV's PDF):
    the release, the stamp and `parts`. None while the open transaction has written rows:
    nothing may be kept then, the stamp has not moved yet."""
    if _bump_pending():
        return None
    digest = hashlib.sha256(repr(parts).encode()).hexdigest()
    return f"{name}:{release()}:{current_stamp()}:{digest}"


def lasting_key(name: str, parts: object) -> str:
    """The key of a value that outlives changes (the release and `parts` only): the latest copy
    of a slow document, served for a bounded time while it is made again, and the claim on
    making it."""
    digest = hashlib.sha256(repr(parts).encode()).hexdigest()
    return f"{name}:{release()}:{digest}"


class LocalCopies:
    """The most recently used values of one process, at most `settings.<size_setting>` of them.

    For what is read on every request and costs more to fetch from the shared cache (a file
    read, a network round trip and unpickling) than to keep: whole pages, a list's entries.
    The copies are those of one change stamp: when a request brings a new one (a save on this
    or another app server), they are all dropped, so a copy is valid exactly as long as one
    in the shared cache would be.
    """

    def __init__(self, size_setting: str):
        self.size_setting = size_setting
        self.values: OrderedDict[str, object] = OrderedDict()
        self.stamp = ""
        self.lock = threading.Lock()

    def get_many(self, keys: list[str], *, stamp: str) -> dict[str, object]:
        with self.lock:
            self._drop_older_than(stamp)
            found = {key: self.values[key] for key in keys if key in self.values}
            for key in found:
                self.values.move_to_end(key)
        return found

    def set_many(self, values: Mapping[str, object], *, stamp: str) -> None:
        with self.lock:
            self._drop_older_than(stamp)
            self.values.update(values)
            for key in values:
                self.values.move_to_end(key)
            size = getattr(settings, self.size_setting)
            while len(self.values) > size:
                self.values.popitem(last=False)

    def _drop_older_than(self, stamp: str) -> None:
        if stamp != self.stamp:
            self.values.clear()
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
) -> dict[K, str]:
    """`render(ids)`, each id's value kept in this process's memory until the next change: the
    entries of a list (a paper's <li> with its citation) or of an export (its BibTeX), which
    every list or export showing the paper shares, so that a page rendered anew renders only
    the entries no list has shown since the last change. `render` is given the ids not kept,
    once, and may leave out an id whose row is gone; the answer is in the order of `ids`.
    `parts` names what else a value depends on (the site's address). Kept with SITE_CACHE=0
    too, as `cached` values are; never with DEBUG on, so that a template edited under
    runserver shows at once.

    In each process's memory rather than the shared cache: 50 reads from a file cache cost
    more than the page they would spare, and the file cache lists its folder on every write.
    Kept as UTF-8 (a str with one curly quote takes two bytes per character), at most
    `settings.<size_setting>` values of this `name`.
    """
    ids = list(dict.fromkeys(ids))
    stamp = current_stamp()
    keep = bool(stamp) and not settings.DEBUG and not _bump_pending()
    store = _kept.get(name) or _kept.setdefault(name, LocalCopies(size_setting))
    digest = hashlib.sha256(repr(parts).encode()).hexdigest()[:16]
    keys = {id: f"{name}:{release()}:{digest}:{id}" for id in ids}
    kept = store.get_many(list(keys.values()), stamp=stamp) if keep else {}
    found = {id: cast(bytes, kept[keys[id]]).decode() for id in ids if keys[id] in kept}
    if missing := [id for id in ids if id not in found]:
        rendered = render(missing)
        if keep:
            new = {keys[id]: value.encode() for id, value in rendered.items()}
            store.set_many(new, stamp=stamp)
        found.update(rendered)
    return {id: found[id] for id in ids if id in found}


@functools.cache
def release() -> str:
    """The code's version, so a deploy never serves a page rendered by the templates before it:
    settings.SITE_RELEASE, else a digest of the project's own source, templates and static files
    (the same on every app server that runs the same code)."""
    if settings.SITE_RELEASE:
        return settings.SITE_RELEASE
    base = Path(settings.BASE_DIR)
    roots = {Path(config.path) for config in apps.get_app_configs()}
    templates: list[dict] = settings.TEMPLATES
    roots |= {Path(folder) for template in templates for folder in template["DIRS"]}
    roots |= {Path(folder) for folder in settings.STATICFILES_DIRS}
    digest = hashlib.sha256()
    for root in sorted(root for root in roots if root.is_relative_to(base)):
        for path in sorted(root.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(base)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


def page_key(request: HttpRequest, stamp: str) -> str:
    """The release, the stamp and the URL as asked, with the parameters in a fixed order (each
    name's values kept in their order: the page lists them so) and the host, which absolute
    links in feeds and exports are built from."""
    query = urlencode(sorted(request.GET.lists(), key=lambda item: item[0]), doseq=True)
    url = f"{request.scheme}://{request.get_host()}{request.path}?{query}"
    return f"{PAGE_KEY}:{release()}:{stamp}:{hashlib.sha256(url.encode()).hexdigest()}"


def etag(stamp: str) -> str:
    # Weak: the same content, not necessarily the same bytes (a header may differ).
    return f'W/"{release()}-{stamp}"'


class SiteCacheMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        # The most recently used pages, pickled, in this process (see cached_page).
        self.local = LocalCopies("SITE_CACHE_LOCAL_PAGES")

    def __call__(self, request: HttpRequest) -> HttpResponse:
        token = _request_stamp.set(_shared_stamp())
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
        if not settings.SITE_CACHE or _bump_pending():
            return self.get_response(request)

        stamp = current_stamp()
        validator = etag(stamp)
        if validator in _etags(request.headers.get("If-None-Match", "")):
            return self.not_modified(validator)
        key = page_key(request, stamp) if request.method == "GET" else None
        if key is not None and (cached := self.cached_page(key, stamp)) is not None:
            cached[CACHE_HEADER] = "hit"
            return cached
        response = self.get_response(request)
        if self.is_cacheable(response):
            response["ETag"] = validator
            response.headers.pop("Last-Modified", None)
            patch_vary_headers(response, ["Cookie"])
            if "Cache-Control" not in response:
                # Kept by browsers and proxies, but asked again each time: cheap with the ETag.
                patch_cache_control(response, public=True, no_cache=True)
            # A streamed answer (a large export) is validated like any page, but not kept.
            if key is not None and not response.streaming:
                cache.set(key, response, settings.SITE_CACHE_TIMEOUT)
                self.local.set_many(
                    {key: pickle.dumps(response, pickle.HIGHEST_PROTOCOL)}, stamp=stamp
                )
                response[CACHE_HEADER] = "miss"
        return response

    def cached_page(self, key: str, stamp: str) -> HttpResponse | None:
        """From this process's own copies first, then from the shared cache.

        A page of 50 papers with their Cite blocks weighs 200 KB: reading it from a file cache
        (or Redis) and decompressing it costs more than whitenoise's whole answer for a static
        file.
        """
        if (data := self.local.get_many([key], stamp=stamp).get(key)) is not None:
            return pickle.loads(cast(bytes, data))
        response = cache.get(key)
        if response is not None:
            self.local.set_many({key: pickle.dumps(response, pickle.HIGHEST_PROTOCOL)}, stamp=stamp)
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


def keep_private(response: HttpResponse) -> None:
    """A staff member's answer (a draft preview, an edit link) stays in their browser only."""
    response.headers.pop("ETag", None)
    response.headers.pop("Last-Modified", None)
    patch_cache_control(response, private=True, no_store=True)


def _etags(header: str) -> set[str]:
    """The ETags of an If-None-Match header; a strong one matches its weak form too."""
    tags = {tag.strip() for tag in header.split(",")} - {""}
    return tags | {f"W/{tag}" for tag in tags if not tag.startswith("W/")}
