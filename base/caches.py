"""Every cache the site keeps, in one table, and the only module that builds a cache key or
reads and writes Django's cache (tests/base/test_cache_registry.py holds the rest of the code to
that).

Each entry of `REGISTRY` says what the cache keeps, what moves it (makes what it keeps out of
date) and where it lives (its tier). What moves a cache is a set of **scopes**, named by the
rows a write touched (base/site_cache.py records them for each committed transaction):

- `site`: any write of a row a public page shows (every transaction moves the change stamp);
- `paper:<pk>`: one paper's own rows (the paper, its authors, links and awards, how a person
  of its authors is named);
- `papers-of:<person pk>`: which papers a person authored, and any of those papers;
- `person:<pk>`: one person's own row;
- `publications`: the papers as a collection (a list's rows and order, a search's matches);
- `facets`: what the lists' counts are made from: a paper added or deleted, its year, venue,
  type, draft state or areas, its author rows and awards (not a title, an abstract or a link:
  `Publication.COUNTED_FIELDS`, `PublicationPart.counted`);
- `listing`: what a list's page of rows holds: `facets`, and a paper's title or slug (not
  its abstract, a link or an author's name, which only its entry shows);
- `facets-of:<person pk>`: the same, of the papers a person authored (their papers per year,
  their co-authors, their network);
- `people`: anyone's name or whether they are a published member;
- `events`: talks and events (events/models.py), which whole pages and a paper's kept parts
  (its talks) show;
- `related-model`: a new model of related papers (publications/related.py), written by the worker.

A write of a model that names no scopes (`cache_scopes()` on the model) moves every cache.
The `lags` column: a cache whose previous value is served for at most
`settings.SITE_CACHE_LAG_SECONDS` after a write while one process computes the new one after
its answer (counts only; docs/decisions/cache-scopes.md).
"""

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.core.cache import cache
from django.http import HttpRequest

PER_PROCESS = "per-process memory"
SHARED = "shared cache (files or Redis)"
HTTP = "browsers and proxies (ETag, 304)"


@dataclass(frozen=True)
class Cache:
    name: str
    keeps: str
    moved_by: str
    tier: str
    lags: bool = False


REGISTRY: dict[str, Cache] = {
    entry.name: entry
    for entry in [
        Cache(
            "site-stamp", "the change stamp: the last change's number and record", "site", SHARED
        ),
        Cache("site-change", "what each change touched (scopes) and when", "site", SHARED),
        Cache(
            "site-page",
            "whole public pages, feeds and exports, written once the answer is sent; a page "
            "that changes with time (upcoming events) no longer than it stays true "
            "(site_cache.true_until); after an editor's save, the pages showing it (the paper's, "
            "its members' profiles) rendered and kept once the save is answered "
            "(site_cache.warm_after_answer)",
            "site",
            SHARED,
        ),
        Cache("site-page-local", "the most recently used whole pages", "site", PER_PROCESS),
        Cache("etag", "a page's validator: the release and the stamp", "site", HTTP),
        Cache(
            "publication-entry",
            "a paper's list entry with its Cite block",
            "paper:<pk>",
            PER_PROCESS,
        ),
        Cache("publication-bibtex", "a paper's BibTeX entry", "paper:<pk>", PER_PROCESS),
        Cache(
            "person-card",
            "a person's card (the directory, the home page, a group's and an area's people)",
            "person:<pk>, and any write of their researcher row (their name), links, role or "
            "alumni record (those name no narrower scope)",
            PER_PROCESS,
        ),
        Cache(
            "news-entry",
            "a news item's entry in the news list and on the home page",
            "people, facets (a paper published or not) and paper:<each paper it names>, where "
            "its papers were loaded; any write of news or groups (they name no narrower scope)",
            PER_PROCESS,
        ),
        Cache(
            "published-people",
            "each published member's pk by their address's slug (a visitor's CV PDF)",
            "people, and any write naming no scope (a researcher row: their slug)",
            PER_PROCESS,
        ),
        Cache(
            "lab-row",
            "the lab's row, with whether it has published groups, areas, events, projects and "
            "outputs (every page's header)",
            "events, and any write of the lab, a group, an area, a project or an output (they "
            "name no narrower scope)",
            PER_PROCESS,
        ),
        Cache(
            "publication-page",
            "the parts of a paper's page",
            "paper:<pk>, papers-of:<each member author>, related-model, events; and what it shows "
            "of others: paper:<each other paper listed>, person:<each creator of its outputs, "
            "speaker of its talks>",
            PER_PROCESS,
        ),
        Cache(
            "publication-surroundings",
            "what a paper's page shows of other rows: its members' newest other papers, its "
            "related papers, news, datasets and software, talks, grants and projects",
            "papers-of:<each member author>, related-model, events, paper:<each paper listed>, "
            "person:<each creator, speaker>, apart from a change of the paper alone",
            SHARED,
        ),
        Cache(
            "publication-counts",
            "a filter's count, facets, award count and papers per year",
            "facets, people (a search's: publications, people)",
            SHARED,
            lags=True,
        ),
        Cache(
            "publication-list-page",
            "a filter's page of rows (a search's first page: its rows and a margin, brought up "
            "to date from the papers edited since)",
            "listing, people (a search's: publications)",
            SHARED,
        ),
        Cache("home-publications", "the home page's papers", "publications", SHARED),
        Cache("area-publications", "an area's papers per year and newest", "publications", SHARED),
        Cache(
            "profile-person",
            "a profile's person with its rows",
            "person:<pk>, person:<each advisor, student and close collaborator it names>",
            SHARED,
        ),
        Cache("profile-counts", "a profile's papers per year", "facets-of:<pk>", SHARED, lags=True),
        Cache(
            "profile-citations",
            "a profile's citation counts added up (when the lab shows them)",
            "papers-of:<pk>",
            SHARED,
        ),
        Cache(
            "profile-people",
            "a profile's co-authors in and outside the lab",
            "facets-of:<pk>, people",
            SHARED,
        ),
        Cache(
            "profile-selection",
            "a profile's selected papers (featured, then newest)",
            "papers-of:<pk>",
            SHARED,
        ),
        Cache(
            "news-choices",
            "the news filter's years and people",
            "people, and any write of news (it names no narrower scope)",
            SHARED,
        ),
        Cache(
            "output-choices",
            "the datasets and software list's years, and the published members",
            "site (outputs name no narrower scope)",
            SHARED,
        ),
        Cache(
            "section-outputs",
            "a profile's, group's or area's first datasets and software",
            "people, and any write of an output (outputs name no narrower scope)",
            SHARED,
        ),
        Cache(
            "section-projects",
            "a profile's, group's or area's first projects",
            "people, and any write of a project, grant or funder (they name no narrower scope)",
            SHARED,
        ),
        Cache(
            "coauthor-network",
            "a co-author network: who wrote with whom, and its drawing",
            "a member's: facets-of:<pk>, people; a group's, an area's, the lab's: facets, people",
            SHARED,
            lags=True,
        ),
        Cache(
            "publication-filters",
            "the list's filter panel (a {% cache %} fragment)",
            "its publication-counts",
            SHARED,
            lags=True,
        ),
        Cache(
            "publication-chart",
            "the list's year chart (a {% cache %} fragment)",
            "its publication-counts",
            SHARED,
            lags=True,
        ),
        Cache(
            "coauthor-network-drawing",
            "a co-author network's picture and table as HTML (a {% cache %} fragment)",
            "its coauthor-network",
            SHARED,
            lags=True,
        ),
        Cache(
            "profile-chart",
            "a profile's year chart (a {% cache %} fragment)",
            "its profile-counts",
            SHARED,
            lags=True,
        ),
        Cache(
            "cv-pdf",
            "a CV's PDF, its latest copy and the claim on printing it",
            "person:<pk>, papers-of:<pk>, people",
            SHARED,
        ),
        Cache(
            "bibtex-import-heartbeat",
            "a running BibTeX import's progress",
            "the import (its own writes)",
            SHARED,
        ),
        Cache(
            "corrections-sent",
            "how many corrections a client address (hashed) sent in the last hour",
            "each correction sent (publications/claims/forms.py)",
            SHARED,
        ),
        Cache(
            "rebuild-claim",
            "which process recomputes a lagging value; whether a related papers' build is queued",
            "-",
            SHARED,
        ),
    ]
}


def _registered(name: str) -> str:
    if name not in REGISTRY:
        raise KeyError(f"{name!r} is not a cache listed in base.caches.REGISTRY")
    return name


def _digest(parts: object) -> str:
    return hashlib.sha256(repr(parts).encode()).hexdigest()


# Keys. ----------------------------------------------------------------------------------------

STAMP_KEY = "site-stamp"
EPOCH_KEY = "site-stamp-epoch"


def change_counter_key(epoch: str) -> str:
    return f"site-change-count:{epoch}"


def change_key(epoch: str, number: int) -> str:
    return f"site-change:{epoch}:{number}"


def lasting_key(name: str, parts: object, *, release: str) -> str:
    """A value that outlives changes: it carries the stamp it was made under, or is the latest
    copy of a slow document (`name` may carry a suffix: "cv-pdf-latest")."""
    _registered(name.removesuffix("-latest").removesuffix("-printing"))
    return f"{name}:{release}:{_digest(parts)}"


def rebuild_claim_key(key: str) -> str:
    return f"{_registered('rebuild-claim')}:{key}"


def entry_key(name: str, parts: object, id: object, *, release: str) -> str:
    return f"{_registered(name)}:{release}:{_digest(parts)[:16]}:{id}"


def page_key(request: HttpRequest, *, release: str, stamp: str) -> str:
    """The release, the stamp and the URL as asked, with the parameters in a fixed order (each
    name's values kept in their order: the page lists them so) and the host, which absolute
    links in feeds and exports are built from."""
    query = urlencode(sorted(request.GET.lists(), key=lambda item: item[0]), doseq=True)
    url = f"{request.scheme}://{request.get_host()}{request.path}?{query}"
    return f"site-page:{release}:{stamp}:{hashlib.sha256(url.encode()).hexdigest()}"


def etag(*, release: str, stamp: str) -> str:
    # Weak: the same content, not necessarily the same bytes (a header may differ).
    return f'W/"{release}-{stamp}"'


def heartbeat_key(job_id: object) -> str:
    return f"{_registered('bibtex-import-heartbeat')}:{job_id}"


def corrections_sent_key(address: str) -> str:
    """A client address's count of corrections sent, under a digest of the address."""
    return f"{_registered('corrections-sent')}:{hashlib.sha256(address.encode()).hexdigest()}"


# Reads and writes of the shared cache (settings.CACHES["default"]). ---------------------------


def read(key: str, default: Any = None) -> Any:
    return cache.get(key, default)


def read_many(keys: Iterable[str]) -> dict[str, Any]:
    return cache.get_many(list(keys))


def write(key: str, value: Any, timeout: float | None) -> None:
    cache.set(key, value, timeout)


def write_many(values: Mapping[str, Any], timeout: float | None) -> None:
    cache.set_many(dict(values), timeout)


def add(key: str, value: Any, timeout: float | None) -> bool:
    """Write `key` only if it is absent: a claim, or a number first made."""
    return bool(cache.add(key, value, timeout))


def forget(key: str) -> None:
    cache.delete(key)


def increment(key: str) -> int:
    """`key`'s number plus one (atomic on Redis and in memory; a read and a write on files).
    ValueError when the key is absent."""
    return int(cache.incr(key))
