"""How author names are compared with members' names and aliases.

Only whole names are compared, after folding case, accents, punctuation and spacing: "Hang Zhu",
"hang  zhu" and "Hang Zhu*" are one name, but "Zhang Zhang" or "Wang Zhang" never match "Hao
Zhang", and "Haoran Zhang" never matches "Hao Zhang".
"""

import re

from directory.text import fold

PUNCTUATION = re.compile(r"[.,*†‡§¶#]")


def normalize_name(name: str) -> str:
    without_marks = PUNCTUATION.sub(" ", fold(name))
    return " ".join(without_marks.replace("-", " ").split())
