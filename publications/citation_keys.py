"""Citation keys: "zhu2023klotski", what the "Cite" block and every export call a publication."""

import re
from collections import defaultdict
from collections.abc import Iterable

from bibtexparser.middlewares.names import parse_single_name_into_parts
from django.db.models import OuterRef, Q, Subquery

from directory.text import fold
from publications.models import Authorship, Publication

STOP_WORDS = {"a", "an", "the", "on", "of", "in", "for", "to", "and", "with", "at", "by", "from"}


def citation_keys(publications: Iterable[Publication]) -> dict[int, str]:
    """Each publication's key: first author's family name, year and first word of the title.

    "zhu2023klotski". Publications that would share a key are told apart by a letter (b, c, …)
    in the order they were added, counting drafts, so a key does not change when another paper
    is added or published. Runs one query: the publications of the same years whose first
    author could give the same key (see `_could_share_a_key`), to find them.
    """
    publications = list(publications)
    years = {publication.year for publication in publications}
    if not years:
        return {}
    same_years = Q(year__in=[year for year in years if year is not None])
    if None in years:
        same_years |= Q(year__isnull=True)
    first_author = (
        Authorship.objects.filter(publication=OuterRef("pk")).order_by("position").values("name")
    )
    rows = Publication.objects.filter(same_years).annotate(first_author=Subquery(first_author[:1]))
    if (could_share := _could_share_a_key(publications, years=years)) is not None:
        rows = rows.filter(Q(pk__in=[publication.pk for publication in publications]) | could_share)
    seen: dict[str, int] = defaultdict(int)
    keys = {}
    for pk, title, year, author in rows.order_by("pk").values_list(
        "pk", "title", "year", "first_author"
    ):
        base = base_citation_key(first_author=author or "", year=year, title=title)
        keys[pk] = base + _key_suffix(seen[base])
        seen[base] += 1
    return {publication.pk: keys[publication.pk] for publication in publications}


# Past this many publications at once (an export), one pattern each costs the database more than
# reading the years whole, which the export's rows mostly are anyway.
MAX_NARROWED_KEYS = 50
# Any character outside ASCII: "ú" or "ﬁ" in a name can become letters of its key.
NOT_ASCII = r"[^\x01-\x7f]"


def _could_share_a_key(publications: list[Publication], *, years: set[int | None]) -> Q | None:
    """The first authors (the `first_author` annotation) whose papers of these years could have
    the key of one of `publications`, as SQL, so that only they are read and parsed; None when
    every paper of the years must be.

    A key runs family, year and word together, so a paper of year Y shares the key K only if its
    family name, as keys write it, is a beginning of K followed by Y: "zhao" for
    "zhao2023klotski" (or "zhao2023k" if the title word were "2023klotski"). A name in ASCII
    holds that family's letters in that order, in either case; a name with any other character
    can fold into any letters ("Núñez" is "nunez"), so it is always read. An undated paper, an
    anonymous one ("anon" also stands for names without letters) and authorships not prefetched
    (they would cost a query each) leave the years whole, as before.
    """
    year_texts = tuple(f"{year or ''}" for year in years)
    if "" in year_texts or len(publications) > MAX_NARROWED_KEYS:
        return None
    patterns = {NOT_ASCII}
    for publication in publications:
        authorships = getattr(publication, "_prefetched_objects_cache", {}).get("authorships")
        if authorships is None:
            return None
        first = min(authorships, key=lambda authorship: authorship.position, default=None)
        key = base_citation_key(
            first_author=first.name if first else "", year=publication.year, title=publication.title
        )
        families = [key[:end] for end in range(1, len(key)) if key[end:].startswith(year_texts)]
        if "anon" in families:
            return None
        patterns.add(_letters_in_order(families[0]))  # the shortest: any longer one holds it
    return Q(first_author__regex="|".join(sorted(patterns)))


def _letters_in_order(letters: str) -> str:
    """A regular expression finding these letters (a-z, 0-9) in this order, either case,
    anything between: "zh" is "^[^zZ]*[zZ][^hH]*[hH]". Each gap stops at the next letter, so a
    long name never makes it backtrack."""
    pattern = "^"
    for letter in letters:
        either_case = letter + letter.upper() if letter.isalpha() else letter
        pattern += f"[^{either_case}]*[{either_case}]"
    return pattern


def base_citation_key(*, first_author: str, year: int | None, title: str) -> str:
    family = ""
    if first_author.strip():
        family = " ".join(parse_single_name_into_parts(first_author, strict=False).last)
    family = "".join(re.findall(r"[a-z0-9]+", _ascii(family).lower()))
    words = re.findall(r"[a-z0-9]+", _ascii(title).lower())
    word = next((word for word in words if word not in STOP_WORDS), "")
    return f"{family or 'anon'}{year or ''}{word}"


def _key_suffix(index: int) -> str:
    if index == 0:
        return ""
    return "bcdefghijklmnopqrstuvwxyz"[index - 1] if index <= 25 else str(index + 1)


def _ascii(text: str) -> str:
    """Folded to plain letters; what has no ASCII form (Chinese, say) is left out."""
    return fold(text).encode("ascii", "ignore").decode()
