"""Citation keys: "zhu2023klotski", what the "Cite" block and every export call a publication.

A key is stored on its publication (`Publication.citation_key`, unique), so a page or an export
reads it with the row instead of comparing the paper with every other paper of its year. It is
set when the paper is saved and whenever its first author changes (publications/receivers.py),
and kept while the family name, year and first title word it is made of stay the same: a key
never changes because another paper was added, published or retitled.
"""

import re
from collections.abc import Iterable, Iterator

from django.db.models import OuterRef, Subquery

from base.text import fold
from people.names import split_name
from publications.models import CITATION_KEY_MAX_LENGTH, Authorship, Publication

STOP_WORDS = {"a", "an", "the", "on", "of", "in", "for", "to", "and", "with", "at", "by", "from"}
# Room for the suffix that tells apart papers sharing a base ("b", or "27" past "z").
BASE_MAX_LENGTH = CITATION_KEY_MAX_LENGTH - 8
# Keys with one base looked up at once when a paper needs a free one.
CANDIDATES = 30


def citation_keys(publications: Iterable[Publication]) -> dict[int, str]:
    """Each publication's stored key; no query. A row that has none yet (a paper inserted by a
    script that did not set it) gets its base key, which is what it will most likely be given."""
    return {
        publication.pk: publication.citation_key
        or base_citation_key(
            first_author=_first_author(publication), year=publication.year, title=publication.title
        )
        for publication in publications
    }


def refresh_citation_key(publication_id: int) -> None:
    """Gives the publication a key that fits its first author, year and title, unless the one it
    has already does. One query, and two when the key changes (looked up, then written).

    Papers that would share a key are told apart by a letter (b, c, …), the first one free, so
    the letters follow the order in which they were added.
    """
    refresh_citation_keys([publication_id])


def refresh_citation_keys(publication_ids: Iterable[int]) -> None:
    """`refresh_citation_key` for many papers (a bulk write's): one query a batch of papers,
    and two for each paper whose key no longer fits, in the order they were added."""
    ids = sorted(set(publication_ids))
    first_author = (
        Authorship.objects.filter(publication=OuterRef("pk")).order_by("position").values("name")
    )
    for start in range(0, len(ids), CANDIDATES * 10):
        rows = (
            Publication.objects.filter(pk__in=ids[start : start + CANDIDATES * 10])
            .order_by("pk")
            .values_list("pk", "title", "year", "citation_key")
            .annotate(first_author=Subquery(first_author[:1]))
        )
        for pk, title, year, current, first in rows:  # a paper deleted has no row
            base = base_citation_key(first_author=first or "", year=year, title=title)
            current = current or ""
            if current.startswith(base) and current[len(base) :] in SUFFIX_SET:
                continue
            key = _free_key(base, exclude=pk)
            # Moves the change stamp (SiteQuerySet): the pages showing the key are out of date.
            Publication.objects.filter(pk=pk).update(citation_key=key)


def _free_key(base: str, *, exclude: int) -> str:
    """One query, on the unique index, while fewer than CANDIDATES papers share the base (nearly
    always); past them one more, for every key that begins with the base. A query per
    CANDIDATES keys made an import of papers sharing a base quadratic: 1,500 untitled-alike
    entries ran 37,000 queries."""
    others = Publication.objects.exclude(pk=exclude)
    candidates = [base + suffix for suffix in SUFFIXES[:CANDIDATES]]
    taken = set(others.filter(citation_key__in=candidates).values_list("citation_key", flat=True))
    if len(taken) == len(candidates):
        taken = set(
            others.filter(citation_key__startswith=base).values_list("citation_key", flat=True)
        )
    for suffix in SUFFIXES:
        if base + suffix not in taken:
            return base + suffix
    raise ValueError(f"Every citation key for {base!r} is taken.")


def keys_in_order(rows: Iterable[tuple[str, int | None, str]], *, taken: set[str]) -> Iterator[str]:
    """The keys of papers (first author, year, title) given in the order they were added, each
    the first free one: for a migration or a bulk insert, without a query per paper. `taken`
    holds the keys already in use and is updated."""
    for first_author, year, title in rows:
        base = base_citation_key(first_author=first_author, year=year, title=title)
        key = next(base + suffix for suffix in SUFFIXES if base + suffix not in taken)
        taken.add(key)
        yield key


def base_citation_key(*, first_author: str, year: int | None, title: str) -> str:
    family = ""
    if first_author.strip():
        family = split_name(first_author).family
    family = "".join(re.findall(r"[a-z0-9]+", _ascii(family).lower()))
    words = re.findall(r"[a-z0-9]+", _ascii(title).lower())
    word = next((word for word in words if word not in STOP_WORDS), "")
    return f"{family or 'anon'}{year or ''}{word}"[:BASE_MAX_LENGTH]


def _key_suffix(index: int) -> str:
    if index == 0:
        return ""
    return "bcdefghijklmnopqrstuvwxyz"[index - 1] if index <= 25 else str(index + 1)


# "", "b" … "z", then "27" … : ten thousand papers may share a base.
SUFFIXES = [_key_suffix(index) for index in range(10_000)]
SUFFIX_SET = set(SUFFIXES)


def _first_author(publication: Publication) -> str:
    """Reads the prefetched authorships when there are; else one query."""
    first = (
        min(publication.authorships.all(), key=lambda authorship: authorship.position, default=None)
        if "authorships" in getattr(publication, "_prefetched_objects_cache", {})
        else publication.authorships.order_by("position").first()
    )
    return first.name if first else ""


def _ascii(text: str) -> str:
    """Folded to plain letters; what has no ASCII form (Chinese, say) is left out."""
    return fold(text).encode("ascii", "ignore").decode()
