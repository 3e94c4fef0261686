"""Text as the site compares it: folded for matching, and matched from a word's start.
(Markdown, rendered once at save, is base/markdown.py.)"""

import re
import unicodedata
from collections.abc import Iterable
from itertools import groupby

from django.db.models import Q
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe


def fold(text: str) -> str:
    """Without case or accents, compatibility characters spelled out: "FInal Núñez" is
    "final nunez". What names, titles and citation keys are compared by."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(char for char in decomposed if not unicodedata.combining(char)).casefold()


# What may stand before a word in a name ("Wei-Ying"), in a title or text ("(NSDI)", "I/O"),
# and in a list of one entry per line.
TEXT_BREAKS = (" ", "-", "(", "/", "\n")


def word_start(field: str, word: str, *, breaks: tuple[str, ...] = TEXT_BREAKS) -> Q:
    """`field` has a word starting with `word`, ignoring case: "Hang" matches "Hang Zhu" and
    "Hangzhou", not "Zhang". Plain LIKE patterns (the text starts with the word, or has it after
    one of `breaks`) rather than a regular expression, which SQLite runs in Python row by row:
    at 20,000 papers a regular expression took seconds a search."""
    match = Q(**{f"{field}__istartswith": word})
    for before in breaks:
        match |= Q(**{f"{field}__icontains": f"{before}{word}"})
    return match


# A phrase in double quotes, or a word.
TERM = re.compile(r'"([^"]*)"|(\S+)')


def search_terms(query: str) -> list[str]:
    """The terms a visitor typed, folded as stored search texts are: each word, and each
    "quoted phrase" as one term (its words in a row). An unclosed quote reads as a word."""
    terms = []
    for match in TERM.finditer(query):
        quoted = match.group(1) is not None
        text = match.group(1) if quoted else match.group(2).strip('"')
        if term := " ".join(fold(text).split()):
            terms.append(term)
    return terms


def starts_a_word(text: str, term: str, *, breaks: tuple[str, ...] = TEXT_BREAKS) -> bool:
    """What word_start asks the database, asked of a folded text in Python: for the few rows of
    small tables (people, groups, news), whose text is folded here rather than stored."""
    return text.startswith(term) or any(f"{before}{term}" in text for before in breaks)


def folded_matches(rows: Iterable[tuple[int, str]], terms: list[str]) -> set[int]:
    """The ids whose texts, joined a line each and folded, have every term at a word start."""
    texts: dict[int, list[str]] = {}
    for pk, text in rows:
        texts.setdefault(pk, []).append(text or "")
    folded = {pk: fold("\n".join(parts)) for pk, parts in texts.items()}
    return {pk for pk, text in folded.items() if all(starts_a_word(text, t) for t in terms)}


def marked(text: str, terms: list[str], *, breaks: tuple[str, ...] = TEXT_BREAKS) -> SafeString:
    """`text` as HTML with each word start a search term matched in `<mark>`, everything else
    escaped: "Núñez" is marked for "nun", as the search found it. `terms` are folded
    (search_terms)."""
    folded = ""
    origin: list[int] = []  # the index in `text` of each character of `folded`
    for index, char in enumerate(text):
        part = fold(char)
        folded += part
        origin.extend([index] * len(part))
    chosen = [False] * len(text)
    for term in terms:
        start = folded.find(term)
        while term and start != -1:
            if start == 0 or folded[start - 1] in breaks:
                for position in range(start, start + len(term)):
                    chosen[origin[position]] = True
            start = folded.find(term, start + 1)
    pieces = []
    for is_marked, run in groupby(range(len(text)), key=lambda index: chosen[index]):
        piece = escape("".join(text[index] for index in run))
        pieces.append(f"<mark>{piece}</mark>" if is_marked else piece)
    return mark_safe("".join(pieces))
