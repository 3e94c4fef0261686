"""Citation counts as dated snapshots: how often OpenAlex (`cited_by_count`) and Crossref
(`is-referenced-by-count`) counted each paper with a DOI cited, kept with the day and the
source, and the sentences the paper's page and a profile show when the lab's settings turn
them on. A count the service did not give is never stored, and nothing is shown without one.
"""

import datetime
import time
import urllib.parse
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db.models import OuterRef, QuerySet, Subquery
from django.utils import formats, timezone
from django.utils.translation import gettext, ngettext, pgettext

from base.identifiers import normalize_doi
from publications.identifiers.documents import Unreadable, dig, items, parse_json, text
from publications.identifiers.fetching import Fetch, FetchFailed, default_fetch, service_url
from publications.models import Publication
from publications.suggestions.models import CitationCount

# DOIs per OpenAlex request (its OR filter takes up to 100 values; its pages 200 works).
OPENALEX_BATCH = 50
# How long one refresh may spend asking the services, in all; the papers counted longest ago
# go first, so the next run carries on where this one stopped.
REFRESH_SECONDS = 300
Source = CitationCount.Source


@dataclass
class Refreshed:
    stored: int = 0
    problems: list[str] = field(default_factory=list)

    def summary(self) -> str:
        said = f"{self.stored} count{'s' if self.stored != 1 else ''} stored."
        return " ".join([said, *dict.fromkeys(self.problems)])


def papers_to_refresh(publication_ids: Iterable[int] | None = None) -> list[tuple[int, str]]:
    """(pk, DOI) of the papers with a DOI, those never counted or counted longest ago first."""
    papers = Publication.objects.exclude(doi="")
    if publication_ids is not None:
        papers = papers.filter(pk__in=list(publication_ids))
    last = CitationCount.objects.filter(publication=OuterRef("pk")).order_by("-counted_on")
    rows = papers.annotate(last_counted=Subquery(last.values("counted_on")[:1])).values_list(
        "pk", "doi", "last_counted"
    )
    ordered = sorted(rows, key=lambda row: (row[2] is not None, row[2] or datetime.date.min))
    return [(pk, doi) for pk, doi, _ in ordered]


def refresh_citation_counts(
    publication_ids: Iterable[int] | None = None,
    *,
    fetch: Fetch | None = None,
    today: datetime.date | None = None,
    seconds: float = REFRESH_SECONDS,
) -> Refreshed:
    """Ask OpenAlex (in batches) and Crossref (one DOI a request) for the papers' counts and
    keep today's snapshot of each (a second refresh the same day replaces it)."""
    fetch = fetch or default_fetch()
    today = today or timezone.localdate()
    deadline = time.monotonic() + seconds
    papers = papers_to_refresh(publication_ids)
    by_doi = {normalize_doi(doi).casefold(): pk for pk, doi in papers}
    refreshed = Refreshed()
    counts: dict[tuple[int, str], int] = {}
    dois = list(by_doi)
    for start in range(0, len(dois), OPENALEX_BATCH):
        if time.monotonic() > deadline:
            refreshed.problems.append(_stopped(seconds))
            break
        try:
            counts.update(_openalex(dois[start : start + OPENALEX_BATCH], by_doi, fetch))
        except (FetchFailed, Unreadable) as failed:
            refreshed.problems.append(f"OpenAlex: {failed}")
    for doi, pk in by_doi.items():
        if time.monotonic() > deadline:
            refreshed.problems.append(_stopped(seconds))
            break
        try:
            if (count := _crossref(doi, fetch)) is not None:
                counts[(pk, Source.CROSSREF)] = count
        except FetchFailed as failed:
            if not failed.not_found:
                refreshed.problems.append(f"Crossref: {failed}")
        except Unreadable as unreadable:
            refreshed.problems.append(f"Crossref: {unreadable}")
    CitationCount.objects.bulk_create(
        [
            CitationCount(publication_id=pk, source=source, count=count, counted_on=today)
            for (pk, source), count in counts.items()
        ],
        update_conflicts=True,
        unique_fields=["publication", "source", "counted_on"],
        update_fields=["count"],
    )
    refreshed.stored = len(counts)
    return refreshed


def _stopped(seconds: float) -> str:
    return f"Stopped after {seconds:g} seconds; the papers not asked are asked first next time."


def _count(value: object) -> int | None:
    """A count as the services write it: a whole number, never below zero (bool is not)."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 10_000_000:
        return value
    return None


def _openalex(dois: list[str], by_doi: dict[str, int], fetch: Fetch) -> dict[tuple[int, str], int]:
    query = urllib.parse.urlencode(
        {
            "filter": "doi:" + "|".join(dois),
            "per-page": OPENALEX_BATCH,
            "select": "id,doi,cited_by_count",
        }
    )
    page = parse_json(fetch(f"{service_url('openalex')}/works?{query}"), what="OpenAlex's answer")
    found: dict[tuple[int, str], int] = {}
    for work in items(page, "results"):
        pk = by_doi.get(normalize_doi(text(work, "doi")).casefold())
        count = _count(dig(work, "cited_by_count"))
        if pk is not None and count is not None:
            found[(pk, Source.OPENALEX)] = count
    return found


def _crossref(doi: str, fetch: Fetch) -> int | None:
    url = f"{service_url('crossref')}/works/{urllib.parse.quote(doi, safe='')}"
    answer = parse_json(fetch(url), what="Crossref's answer")
    return _count(dig(answer, "message", "is-referenced-by-count"))


# What the pages show -------------------------------------------------------------------------


def _latest(counts: QuerySet[CitationCount]) -> QuerySet[CitationCount]:
    """Each paper's latest snapshot from each source, in one query."""
    newer = CitationCount.objects.filter(
        publication=OuterRef("publication"), source=OuterRef("source")
    ).order_by("-counted_on")
    return counts.filter(counted_on=Subquery(newer.values("counted_on")[:1]))


def said_on(day: datetime.date) -> str:
    """ "3 Dec 2026" in English, "2026年12月3日" in Chinese: the page's language's way."""
    return formats.date_format(day, pgettext("a day a count was made", "j M Y"))


def citations(count: int) -> str:
    return ngettext("%(count)s citation", "%(count)s citations", count) % {
        "count": formats.number_format(count, force_grouping=True)
    }


def paper_citations(publication_id: int) -> list[str]:
    """ "12 citations (OpenAlex, 3 Dec 2026)", one line per source that counted the paper;
    none when no service did. One query."""
    latest = _latest(CitationCount.objects.filter(publication_id=publication_id))
    return [
        gettext("%(citations)s (%(source)s, %(day)s)")
        % {
            "citations": citations(count.count),
            "source": count.get_source_display(),
            "day": said_on(count.counted_on),
        }
        for count in latest.order_by("-source")  # OpenAlex first
    ]


@dataclass(frozen=True)
class CitationTotal:
    """A profile's citations added up: kept for both languages, so its words are written only
    when it is shown (str()), in the page's language."""

    total: int
    sources: tuple[str, ...]  # Source values, OpenAlex first
    day: datetime.date  # the latest day any of them was counted
    several_days: bool

    def __str__(self) -> str:
        sources = gettext(" and ").join(str(Source(source).label) for source in self.sources)
        day = said_on(self.day)
        if self.several_days:
            day = gettext("up to %(day)s") % {"day": day}
        return gettext("%(citations)s of these papers in all (%(sources)s, %(day)s).") % {
            "citations": citations(self.total),
            "sources": sources,
            "day": day,
        }


def person_citations(publications: QuerySet[Publication]) -> CitationTotal | None:
    """Their papers' latest counts added up, each paper's from OpenAlex where it counted it,
    else from Crossref: "120 citations of these papers (OpenAlex, 3 Dec 2026)." when shown; None
    when no service counted any. One query."""
    latest = _latest(CitationCount.objects.filter(publication__in=publications.values("pk")))
    chosen: dict[int, CitationCount] = {}
    for count in latest.order_by("publication_id", "source"):  # "openalex" after "crossref"
        chosen[count.publication_id] = count
    if not chosen:
        return None
    days = {count.counted_on for count in chosen.values()}
    return CitationTotal(
        total=sum(count.count for count in chosen.values()),
        sources=tuple(sorted({count.source for count in chosen.values()}, reverse=True)),
        day=max(days),
        several_days=len(days) > 1,
    )
