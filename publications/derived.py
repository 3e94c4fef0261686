"""What is made from a paper's title, year, publishing and author rows, and kept on other rows:
its citation key, its search text and its co-author pairs. Every write of those fields makes
them again, in the write's own transaction: a save through the receivers
(publications/receivers.py), a bulk write through Publication's and Authorship's QuerySets
(`update`, `bulk_update`, `bulk_create`: undoing a split, an import, the admin moving authors).

A write of many rows of one paper (the admin saving a paper with its 40 authors) would make them
again once per row: `refreshed_once()` around it collects the papers and makes each paper's
once, as it ends, still inside the caller's transaction.
"""

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from publications.citation_keys import refresh_citation_keys
from publications.models import CoauthorPair
from publications.search import refresh_search_texts

# The papers written inside `refreshed_once()`, made again as it ends; None outside it.
_waiting: ContextVar[set[int] | None] = ContextVar("papers_waiting_for_refresh", default=None)


def refresh_derived(publication_ids: Iterable[int | None]) -> None:
    """Make these papers' citation keys, search texts and co-author pairs again now, or, inside
    `refreshed_once()`, as it ends. A few queries a batch of papers, and a write for each key or
    text that changed."""
    ids = {pk for pk in publication_ids if pk is not None}
    waiting = _waiting.get()
    if waiting is not None:
        waiting.update(ids)
    elif ids:
        _refresh(ids)


def _refresh(ids: set[int]) -> None:
    refresh_citation_keys(ids)
    refresh_search_texts(ids)
    CoauthorPair.objects.refresh(ids)


@contextmanager
def refreshed_once() -> Iterator[None]:
    """Each paper written inside is made again once, as the block ends (not when it raises:
    the caller's transaction is then rolled back anyway). Must run inside the transaction of
    the writes it wraps. Nested blocks leave it to the outermost."""
    if _waiting.get() is not None:
        yield
        return
    waiting: set[int] = set()
    token = _waiting.set(waiting)
    try:
        yield
    finally:
        _waiting.reset(token)
    if waiting:
        _refresh(waiting)
