"""Text as the site compares it: folded for matching, and matched from a word's start.
(Markdown, rendered once at save, is directory/markdown.py.)"""

import unicodedata

from django.db.models import Q


def fold(text: str) -> str:
    """Without case or accents, compatibility characters spelled out: "FInal Núñez" is
    "final nunez". What names, titles and citation keys are compared by."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(char for char in decomposed if not unicodedata.combining(char)).casefold()


# What may stand before a word in a name ("Wei-Ying"), in a title or text ("(NSDI)", "I/O"),
# and in a list of one entry per line.
NAME_BREAKS = (" ", "-")
TEXT_BREAKS = (" ", "-", "(", "/", "\n")


def word_start(field: str, word: str, *, breaks: tuple[str, ...] = TEXT_BREAKS) -> Q:
    """`field` has a word starting with `word`, ignoring case: "Hang" matches "Hang Zhu" and
    "Hangzhou", not "Zhang". Plain LIKE patterns (the text starts with the word, or has it after
    one of `breaks`) rather than a regular expression, which SQLite runs in Python row by row:
    at 20,000 papers a regular expression took seconds a search. Each break costs a pattern, so
    names, the longest table searched, are given only theirs."""
    match = Q(**{f"{field}__istartswith": word})
    for before in breaks:
        match |= Q(**{f"{field}__icontains": f"{before}{word}"})
    return match
