"""How author names are compared with members' names and aliases.

Only whole names are compared, after folding case, accents, punctuation and spacing: "Hang Zhu",
"hang  zhu" and "Hang Zhu*" are one name, but "Zhang Zhang" or "Wang Zhang" never match "Hao
Zhang", and "Haoran Zhang" never matches "Hao Zhang".
"""

import re
import unicodedata

PUNCTUATION = re.compile(r"[.,*†‡§¶#]")


def normalize_name(name: str) -> str:
    decomposed = unicodedata.normalize("NFKD", name)
    without_accents = "".join(char for char in decomposed if not unicodedata.combining(char))
    without_marks = PUNCTUATION.sub(" ", without_accents)
    return " ".join(without_marks.casefold().replace("-", " ").split())
