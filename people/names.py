"""How author names are compared with members' names and aliases.

Only whole names are compared, after folding case, accents, punctuation and spacing: "Hang Zhu",
"hang  zhu" and "Hang Zhu*" are one name, but "Zhang Zhang" or "Wang Zhang" never match "Hao
Zhang", and "Haoran Zhang" never matches "Hao Zhang".
"""

import re
from functools import lru_cache
from typing import NamedTuple

from bibtexparser.middlewares.names import parse_single_name_into_parts

from base.text import fold

PUNCTUATION = re.compile(r"[.,*†‡§¶#]")


def normalize_name(name: str) -> str:
    without_marks = PUNCTUATION.sub(" ", fold(name))
    return " ".join(without_marks.replace("-", " ").split())


# What follows a family name to tell a person from a relative: "Jr.", "Sr.", "III".
SUFFIXES = frozenset({"jr", "sr", "jnr", "snr", "ii", "iii", "iv"})


class NameParts(NamedTuple):
    """A name as the citation formats split it: BibTeX's "von Last, Jr, First", CSL's
    given, non-dropping-particle, family and suffix."""

    given: str
    particle: str
    family: str
    suffix: str


def _is_suffix(word: str) -> bool:
    return word.rstrip(".").casefold() in SUFFIXES


@lru_cache(maxsize=8192)
def split_name(name: str) -> NameParts:
    """The one place an author's name is split for the exports and metadata: BibTeX's rules
    (bibtexparser's), and a suffix where a person writes one: "Guy L. Steele Jr.", "Guy L.
    Steele, Jr.", "Steele, Guy L., Jr." and BibTeX's "Steele, Jr., Guy L." are all given "Guy
    L.", family "Steele", suffix "Jr." (BibTeX alone would make "Jr." the family name of the
    first two). A name of one word is a family name. Remembered: a year's export splits the
    same few hundred names thousands of times."""
    text = " ".join(name.split())
    suffix = ""
    pieces = [piece.strip() for piece in text.split(",")]
    words = text.split()
    if len(pieces) > 1 and _is_suffix(pieces[-1]):
        suffix, text = pieces[-1], ", ".join(pieces[:-1])
    elif len(pieces) == 1 and len(words) > 1 and _is_suffix(words[-1]):
        suffix, text = words[-1], " ".join(words[:-1])
    parts = parse_single_name_into_parts(text, strict=False)
    return NameParts(
        given=" ".join(parts.first),
        particle=" ".join(parts.von),
        family=" ".join(parts.last),
        suffix=suffix or " ".join(parts.jr),
    )
