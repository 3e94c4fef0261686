"""Which known venue a BibTeX booktitle or journal names, and what to call one nobody knows yet.

The same conference reaches the importer spelled many ways. dblp writes
"19th USENIX Symposium on Networked Systems Design and Implementation, NSDI 2022, Renton, WA,
USA, April 4-6, 2022"; the ACM DL writes "SOSP '23: Proceedings of the 29th Symposium on
Operating Systems Principles"; IEEE Xplore writes "2022 IEEE Symposium on Security and Privacy
(SP)"; USENIX writes "16th USENIX Symposium on Operating Systems Design and Implementation
(OSDI 22)"; dblp abbreviates journals ("Proc. VLDB Endow.", "IEEE/ACM Trans. Netw."). A text
is read into acronyms and candidate names, with editions, years, places, dates and
"Proceedings of the" set aside, and then looked up in steps. The first step that finds any
venue decides:

1. an acronym, or the whole text, equal to a venue's short name or one of its aliases
   (ignoring case);
2. a name equal to a venue's name, short name or alias once both are reduced to a key
   (without case, punctuation, "Proceedings of the", editions, years, little words);
3. the same keys without the sponsors in front ("ACM SIGOPS", "USENIX", "IEEE"), as long as
   the sponsors the two name do not contradict each other (an "IEEE" symposium is never the
   ACM's);
4. a journal abbreviation whose words, in order, abbreviate a venue's name word for word.

A step that finds two venues decides on neither: a wrong venue is worse than a new one, which
staff see on the review page. Nothing is ever matched by a part of a name, so "HotNets" is not
NSDI, and "OSDI" and "SOSP" stay apart although both speak of operating systems.

This module is plain Python on purpose: no database, no Django, so the importer, an admin form
and the corpus test share one reading, and the test runs without a database. The caller turns
its rows into `KnownVenue`s and maps the answer back by `KnownVenue.key`. It knows no venue
by name: that dblp's "CoRR" is arXiv, or "Proc. VLDB Endow." is VLDB, are aliases staff give.
"""

import re
import unicodedata
from collections import defaultdict
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import NamedTuple

# The lengths of Venue.short_name and Venue.full_name (a test checks they still agree).
SHORT_NAME_MAX = 50
FULL_NAME_MAX = 300
# A full name this short reads well as a filter label, so it is its own short name
# ("Computer Communications", "Journal of Biomedical Optics").
SHORT_ENOUGH = 30


class VenueKind(StrEnum):
    """The values of Venue.Kind, repeated here so this module needs no Django."""

    CONFERENCE = "conference"
    JOURNAL = "journal"
    WORKSHOP = "workshop"
    PREPRINT_SERVER = "preprint-server"
    OTHER = "other"


@dataclass(frozen=True)
class KnownVenue:
    """A venue the site already has, as the matcher needs it.

    `key` is whatever the caller uses to find its row again (a Venue's pk). `aliases` are the
    other names staff have seen the venue go by; `Venue.alias_list` reads them from the text
    field that holds one a line (publications.models.aliases_from_text).
    """

    key: Hashable
    short_name: str
    full_name: str = ""
    aliases: tuple[str, ...] = ()
    kind: str = VenueKind.OTHER


@dataclass(frozen=True)
class ProposedVenue:
    """What a venue that matched nothing would be created as; staff confirm it on review."""

    short_name: str
    full_name: str
    kind: str


# Words ---------------------------------------------------------------------------------------

STOPWORDS = frozenset({"a", "an", "and", "at", "for", "in", "of", "on", "the", "to"})
# A name with one of these names a meeting, whose proceedings have editions and years.
MEETING_WORDS = frozenset(
    {"conference", "symposium", "workshop", "meeting", "congress", "colloquium", "forum", "summit"}
)
JOURNAL_WORDS = frozenset(
    {"journal", "transactions", "letters", "magazine", "review", "proceedings", "surveys"}
)
# Words that qualify a meeting without telling two apart: "the 39th (Annual) (International)
# Conference on Machine Learning" is ICML however PMLR, dblp or the lab spell it.
MEETING_QUALIFIERS = frozenset({"annual", "international"})
# Abbreviations so common in booktitles that they are read as the word they stand for.
COMMON_ABBREVIATIONS = {
    "proc": "proceedings",
    "procs": "proceedings",
    "conf": "conference",
    "symp": "symposium",
    "int": "international",
    "intl": "international",
}
# Organisations that put their name in front of a venue's: "ACM SIGOPS 28th Symposium on
# Operating Systems Principles" is the "Symposium on Operating Systems Principles".
SPONSORS = frozenset({"acm", "ieee", "usenix", "ifip", "siam", "aaai", "cvf", "iapr"})
# ACM's special interest groups sponsor for the ACM: SIGOPS and the ACM never contradict.
ACM_SPECIAL_INTEREST_GROUPS = frozenset(
    {
        "sigact", "sigai", "sigapp", "sigarch", "sigbed", "sigbio", "sigcas", "sigchi",
        "sigcomm", "sigcse", "sigdoc", "sigecom", "sigevo", "sighpc", "siggraph", "sigir",
        "sigkdd", "siglog", "sigmetrics", "sigmicro", "sigmis", "sigmm", "sigmobile", "sigmod",
        "sigops", "sigplan", "sigsac", "sigsim", "sigsoft", "sigspatial", "sigweb",
    }
)  # fmt: skip
MONTHS = frozenset(
    {
        "january", "february", "march", "april", "may", "june", "july", "august", "september",
        "october", "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug",
        "sep", "sept", "oct", "nov", "dec", "spring", "summer", "fall", "autumn", "winter",
    }
)  # fmt: skip
# Where a dblp booktitle says the meeting took place ends in one of these. The city and state
# before it are recognised by their shape (see `_mark_places`).
PLACES = frozenset(
    {
        "usa", "us", "united states", "uk", "united kingdom", "canada", "mexico", "brazil",
        "chile", "argentina", "colombia", "germany", "france", "italy", "spain", "portugal",
        "the netherlands", "netherlands", "belgium", "luxembourg", "switzerland", "austria",
        "sweden", "norway", "denmark", "finland", "iceland", "ireland", "scotland", "poland",
        "czech republic", "czechia", "hungary", "croatia", "slovenia", "slovakia", "serbia",
        "romania", "bulgaria", "greece", "cyprus", "malta", "turkey", "turkiye", "israel",
        "egypt", "morocco", "south africa", "rwanda", "kenya", "uae", "united arab emirates",
        "qatar", "saudi arabia", "india", "china", "hong kong", "macau", "macao", "taiwan",
        "japan", "korea", "south korea", "republic of korea", "singapore", "malaysia",
        "thailand", "vietnam", "indonesia", "philippines", "australia", "new zealand",
        "russia", "estonia", "latvia", "lithuania", "ukraine", "virtual", "virtual event",
        "online", "hybrid",
    }
)  # fmt: skip
# Words that make a text a name rather than an acronym.
NOT_IN_LABELS = STOPWORDS | MEETING_WORDS | JOURNAL_WORDS | MONTHS
# Little words a place name may hold: "University of Vienna", "Rio de Janeiro".
PLACE_PARTICLES = frozenset({"of", "de", "del", "la", "le", "am", "im", "upon", "sur", "da", "do"})

_UNIT_ORDINALS = "first|second|third|fourth|fifth|sixth|seventh|eighth|ninth"
_TEN_ORDINALS = (
    "tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth"
    "|nineteenth|twentieth|thirtieth|fortieth|fiftieth|sixtieth|seventieth|eightieth|ninetieth"
)
_TENS = "twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety"
UNIT_ORDINAL_WORDS = frozenset(_UNIT_ORDINALS.split("|"))
TEN_ORDINAL_WORDS = frozenset(_TEN_ORDINALS.split("|"))
TENS_WORDS = frozenset(_TENS.split("|"))

# Patterns ------------------------------------------------------------------------------------

# "29th", "1st", "Tenth", "Twenty-Ninth": an edition, with the "the" in front of it.
EDITION = re.compile(
    rf"\b(?:the\s+)?(?:\d+(?:st|nd|rd|th)|(?:{_TENS})[\s-]?(?:{_UNIT_ORDINALS})|{_TEN_ORDINALS}"
    rf"|{_UNIT_ORDINALS})\b",
    re.IGNORECASE,
)
NUMERIC_ORDINAL = re.compile(r"\d+(?:st|nd|rd|th)")
# "2022", "'22": a year, wherever it stands in a name.
YEAR = re.compile(r"\b(?:19|20)\d{2}\b|'\d{2}\b")
# A number standing alone, like the volume in "Advances in Neural Information Processing
# Systems 35"; "Web 2.0" keeps its number.
LONE_NUMBER = re.compile(r"(?<![\w.])\d+(?![\w.])")
# "In Proc. of the", "Proceedings of", "Conference Record of the": what a booktitle says
# before the name of the meeting.
PROCEEDINGS_PREFIX = re.compile(
    r"^(?:in:?\s+)?(?:conference\s+record|proceedings|procs?\.?)(?:\s+of)?(?:\s+the)?\s+",
    re.IGNORECASE,
)
# "In Proceedings of", "Proc. of": how a citation names proceedings; no journal is called so.
CITED_PROCEEDINGS = re.compile(r"in\b|procs?\.?\s+of\b", re.IGNORECASE)
# "arXiv:2501.01234", "abs/2201.00001" (dblp's CoRR volume) and "[cs.LG]" name a paper, not
# its venue.
PAPER_IDENTIFIER = re.compile(r"\b(?:arxiv:\s*|abs/)[\w./-]+|\[[^\[\]]*\]", re.IGNORECASE)
# "arXiv preprint arXiv:2501.01234", "arXiv:2501.01234", "arXiv e-prints": all say arXiv.
ARXIV_TEXT = re.compile(r"^arxiv\b", re.IGNORECASE)
# "bioRxiv preprint": the server is the venue.
PREPRINT_SUFFIX = re.compile(r"\s+(?:preprint|e-?prints?)$", re.IGNORECASE)
# "(NSDI '24)", "(SP)", "(Volume 1: Long Papers)": looked at, then taken out of the name.
PARENTHESISED = re.compile(r"\((?P<inner>[^()]*)\)")
# ": " and " - " separate the pieces of "SIGCOMM '22: ACM SIGCOMM 2022 Conference" and of
# "IEEE INFOCOM 2022 - IEEE Conference on Computer Communications"; commas, which names such
# as OOPSLA's hold too, are looked at piece by piece within (see `_read`).
SECTION_BREAK = re.compile(r"\s*[:;]\s+|\s+-+\s+")
# "NSDI 2022", "SOSP '23", "NSDI'22", "USENIX ATC 22": a label of one to three words, then
# the year of the meeting.
LABEL_WITH_YEAR = re.compile(
    r"(?P<label>[^\s']+(?:\s+[^\s']+){0,2}?)(?:\s*'\d{2}|\s+\d{2}(?:\d{2})?)"
)
# "SC20", "COLING2020": an acronym with its year stuck to it ("IC2E" has none).
ACRONYM_WITH_YEAR = re.compile(r"(?P<acronym>[A-Za-z&]*[A-Za-z])(?:19|20)?\d{2}")
# "Proceedings, Part I", "Volume 2", "Lecture Notes in Computer Science": how a volume is
# cut, which names no venue.
BOILERPLATE = re.compile(
    r"(?:proceedings|part\s+[ivxlc\d]+|vol(?:ume)?\.?\s*[ivxlc\d]+|no\.?\s*\d+"
    r"|lecture\s+notes\s+in\s+computer\s+science)",
    re.IGNORECASE,
)
# A name's words, each with the dot that marks an abbreviation ("Syst.").
WORD = re.compile(r"(?P<word>[^\W_]+)(?P<dot>\.)?")
# "17th European Conference", "International Symposium": a meeting named by its kind alone,
# as in the titles of Lecture Notes volumes (see `_with_lncs_name`).
BARE_MEETING = re.compile(
    r"(?:\d+(?:st|nd|rd|th)\s+)?(?:[A-Z][\w-]*\s+){0,3}(?:Conference|Symposium|Workshop)"
)
# Reading a name's kind when the caller gives none.
PREPRINT_TEXT = re.compile(
    r"\b(?:arxiv|corr|biorxiv|medrxiv|chemrxiv|ssrn|preprints?|e-?prints?)\b", re.IGNORECASE
)
WORKSHOP_TEXT = re.compile(r"\bworkshops?\b", re.IGNORECASE)
JOURNAL_TEXT = re.compile(
    r"\b(?:journal|j\.|transactions|trans\.|letters|magazine|review|surveys|communications of)"
    r"(?!\w)",
    re.IGNORECASE,
)
MEETING_TEXT = re.compile(
    r"\b(?:conferences?|conf\.|symposi(?:um|a)|symp\.|workshops?|meeting|congress|colloquium"
    r"|forum|summit)(?!\w)",
    re.IGNORECASE,
)


# Reading a booktitle -------------------------------------------------------------------------


class _Part(Enum):
    NAME = "name"
    LABEL = "label"  # "NSDI 2022"
    DATE = "date"
    PLACE = "place"
    BOILERPLATE = "boilerplate"


@dataclass(frozen=True)
class _Reading:
    """A venue text taken apart: `labels` are acronyms as written, without their year;
    `names` are the stretches of text that may be the venue's name, most likely first."""

    text: str
    labels: tuple[str, ...]
    names: tuple[str, ...]


def _clean(text: str) -> str:
    """The text without TeX braces, curly quotes or paper identifiers; "In: Proc." is "In Proc."
    (so ": " does not cut it off)."""
    text = unicodedata.normalize("NFKC", text)
    if ARXIV_TEXT.match(text.strip()):
        return "arXiv"
    text = re.sub(r"\\([&%$#_])", r"\1", text).replace("{", "").replace("}", "")
    text = re.sub(r"[‘’´`]", "'", text)
    text = re.sub(r"[‐‑‒–—]", "-", text)
    text = PAPER_IDENTIFIER.sub(" ", text)
    text = " ".join(text.split()).strip(" ,;:")
    text = re.sub(r"^(in):\s+", r"\1 ", text, flags=re.IGNORECASE)
    return PREPRINT_SUFFIX.sub("", text)


def _read(text: str) -> _Reading:
    """Take a booktitle apart into acronyms and candidate names.

    Parentheses hold an acronym ("(NSDI '24)") or a volume ("(Volume 1: Long Papers)"); both
    leave the name, but "(Workshop)" stays in it. Then each piece between ": " or " - " is
    cut at its commas, and each part is a label ("NSDI 2022"), a date, a place, volume
    boilerplate, or a piece of the name. Commas inside a name ("Programming, Systems,
    Languages, and Applications") stay with it. Everything from the first date on is dblp's
    "place, dates, Proceedings, Part I" tail.
    """
    text = _clean(text)
    labels: list[str] = []

    def set_aside(match: re.Match[str]) -> str:
        if label := _label(match["inner"]):
            labels.append(label)
        elif WORKSHOP_TEXT.search(match["inner"]):
            return f" {match['inner']} "  # "ICLR (Workshop)" is not ICLR
        return " "

    rest = PARENTHESISED.sub(set_aside, text).replace("(", " ").replace(")", " ")
    names: list[str] = []
    for section in SECTION_BREAK.split(rest):
        parts = [part.strip() for part in section.split(",") if part.strip(" .")]
        kinds = [_part_kind(part, first=index == 0) for index, part in enumerate(parts)]
        kinds = _mark_places(parts, kinds, named_before=bool(names or labels))
        run: list[str] = []
        dated = False
        for part, kind in zip(parts, kinds, strict=True):
            if kind is _Part.NAME:
                run.append(part)
                continue
            if run:
                names.append(", ".join(run))
                run = []
            if kind is _Part.LABEL:
                labels.append(_label(PROCEEDINGS_PREFIX.sub("", part)))
            elif kind is _Part.DATE:
                dated = True  # the rest is where and when
                break
        if run:
            names.append(", ".join(run))
        if dated:
            break
    return _Reading(text=text, labels=tuple(labels), names=_with_lncs_name(names))


def _with_lncs_name(names: list[str]) -> tuple[str, ...]:
    """dblp's titles of Lecture Notes volumes put the subject first: "Computer Vision - ECCV
    2022 - 17th European Conference" is the "European Conference on Computer Vision"."""
    if names and not MEETING_TEXT.search(names[0]):
        for name in names[1:]:
            if BARE_MEETING.fullmatch(name):
                return (f"{name} on {names[0]}", *names)
    return tuple(names)


def _part_kind(part: str, *, first: bool) -> _Part:
    """What one comma-separated part is. A bare acronym counts only where a name starts
    ("In Proc. of USENIX NSDI"): later on, "WA" in "Renton, WA, USA" is a state."""
    if BOILERPLATE.fullmatch(part):
        return _Part.BOILERPLATE
    if _is_date(part):
        return _Part.DATE
    if _fold(part) in PLACES:
        return _Part.PLACE
    if _label(PROCEEDINGS_PREFIX.sub("", part), bare=first):
        return _Part.LABEL
    return _Part.NAME


def _is_date(part: str) -> bool:
    """ "April 4-6", "17-23 July 2022", "2022", "26" (the end of "August 22 - 26")."""
    words = [word for word in re.split(r"[\s/.-]+", part.casefold()) if word]
    dated = [
        word for word in words if word in MONTHS or re.fullmatch(r"\d{1,4}(?:st|nd|rd|th)?", word)
    ]
    return bool(dated) and all(word in {"and", "to"} or word in dated for word in words)


def _mark_places(parts: Sequence[str], kinds: list[_Part], *, named_before: bool) -> list[_Part]:
    """Cities and states by their shape, in "…, NSDI 2022, Renton, WA, USA, April 4-6, 2022".

    A short capitalised part is a place when a place or a date follows it ("Renton, WA,
    USA"), or when it follows the meeting's label ("NSDI 2022, Carlsbad"). Only after
    something that names the venue, so a name is never taken for a place.
    """
    for index in reversed(range(len(parts))):
        following = kinds[index + 1] if index + 1 < len(kinds) else None
        if (
            kinds[index] is _Part.NAME
            and following in (_Part.PLACE, _Part.DATE)
            and _looks_like_place(parts[index])
            and (named_before or {_Part.NAME, _Part.LABEL} & set(kinds[:index]))
        ):
            kinds[index] = _Part.PLACE
    for index in range(1, len(parts)):
        if (
            kinds[index] is _Part.NAME
            and kinds[index - 1] in (_Part.LABEL, _Part.PLACE)
            and _Part.LABEL in kinds[:index]
            and _looks_like_place(parts[index])
        ):
            kinds[index] = _Part.PLACE
    return kinds


def _looks_like_place(part: str) -> bool:
    words = part.split()
    return (
        1 <= len(words) <= 4
        and words[0][:1].isupper()
        and not any(char.isdigit() for char in part)
        and all(word[:1].isupper() or word in PLACE_PARTICLES for word in words)
        and not {_fold(word) for word in words} & (MEETING_WORDS | JOURNAL_WORDS)
    )


def _label(text: str, *, bare: bool = True) -> str:
    """The acronym in "NSDI '24", "USENIX ATC 22" or (when `bare`) "SP", else "".

    With its year, any short run of capitalised words is a label ("Middleware 2022",
    "USENIX Security 22"); without one, it must look like an acronym ("SP", "EuroSys"), so
    "(Volume 1: Long Papers)" and "(Virtual Event)" are not labels.
    """
    text = " ".join(text.split())
    if match := LABEL_WITH_YEAR.fullmatch(text):
        label, with_year = match["label"], True
    elif bare:
        label, with_year = text, False
    else:
        return ""
    words = label.split()
    if not 1 <= len(words) <= 3 or len(label) > SHORT_ENOUGH:
        return ""
    if any(not word[0].isalpha() or _fold(word.strip(".,")) in NOT_IN_LABELS for word in words):
        return ""
    if all(_fold(part) in SPONSORS for word in words for part in re.split(r"[/-]", word)):
        return ""  # "Proceedings of the IEEE" names a journal, not a meeting called "IEEE"
    if with_year:
        return label if all(word[0].isupper() or _is_acronym(word) for word in words) else ""
    if (dated := ACRONYM_WITH_YEAR.fullmatch(label)) and _is_acronym(dated["acronym"]):
        return dated["acronym"]  # "SC20", "ICML2021": the meeting of a year, named by its acronym
    return label if _is_acronym(label) else ""


def _is_acronym(text: str) -> bool:
    """Every word has two capitals ("NSDI", "EuroSys", "HotOS", "IC2E") or is like "S&P"."""
    return all(sum(char.isupper() for char in word) >= 2 or "&" in word for word in text.split())


# Keys ----------------------------------------------------------------------------------------


class _Token(NamedTuple):
    word: str
    abbreviated: bool  # written with a dot: "Syst."


class _Spelling(NamedTuple):
    """A name's tokens without its leading sponsors, and the organisations they named."""

    tokens: tuple[_Token, ...]
    organisations: frozenset[str]


# Each candidate name of a text: its tokens, and the same without its sponsors.
_Spellings = list[tuple[tuple[_Token, ...], _Spelling]]


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(char for char in decomposed if not unicodedata.combining(char)).casefold()


def _is_sponsor(word: str) -> bool:
    return word in SPONSORS or word in ACM_SPECIAL_INTEREST_GROUPS


def _is_sponsor_word(word: str) -> bool:
    """ "USENIX", "IEEE/ACM", "SIGPLAN-SIGACT" as written in a label."""
    return all(_is_sponsor(part) for part in re.split(r"[/-]", _fold(word)))


def _tokens(name: str) -> tuple[_Token, ...]:
    """A name's words as they decide which venue it is.

    Left out: "Proceedings of the" (unless nothing but a sponsor is left, as in "Proceedings
    of the IEEE"), editions and numbers, little words, "Annual"/"International" before a
    meeting word, and a final "Conference" ("ACM SIGCOMM 2022 Conference" is SIGCOMM).
    """
    tokens = [
        _Token(COMMON_ABBREVIATIONS.get(word, word), bool(dot) and word not in COMMON_ABBREVIATIONS)
        for word, dot in WORD.findall(_fold(name))
        if not word.isdigit()
    ]
    words = [token.word for token in tokens]
    start = 1 if words[:1] == ["in"] else 0
    if words[start : start + 2] == ["conference", "record"]:
        start += 2
    elif words[start : start + 1] == ["proceedings"]:
        start += 1
    else:
        start = 0  # "In Search of …" has no prefix
    prefixed = start > 0
    rest = [token for token in tokens[start:] if token.word not in STOPWORDS]
    if prefixed and all(_is_sponsor(token.word) for token in rest):
        rest = [_Token("proceedings", False), *rest]
    if prefixed or any(token.word in MEETING_WORDS for token in rest):
        rest = _without_editions(rest)
    kept: list[_Token] = []
    for index, token in enumerate(rest):
        following = (later.word for later in rest[index:])
        # "Annual (International) (ACM SIGPLAN-SIGACT) Symposium": the word they qualify.
        qualified = next(
            (
                word
                for word in following
                if word not in MEETING_QUALIFIERS and not _is_sponsor(word)
            ),
            "",
        )
        if token.word in MEETING_QUALIFIERS and qualified in MEETING_WORDS:
            continue
        kept.append(token)
    if len(kept) > 1 and kept[-1].word == "conference":
        kept.pop()
    return tuple(kept)


def _without_editions(tokens: list[_Token]) -> list[_Token]:
    kept: list[_Token] = []
    for token in tokens:
        if NUMERIC_ORDINAL.fullmatch(token.word) or token.word in TEN_ORDINAL_WORDS:
            continue
        if token.word in UNIT_ORDINAL_WORDS:
            if kept and kept[-1].word in TENS_WORDS:
                kept.pop()  # "twenty-ninth"
            continue
        kept.append(token)
    return kept


def _key(tokens: Iterable[_Token]) -> str:
    return " ".join(token.word for token in tokens)


def _without_sponsors(tokens: tuple[_Token, ...]) -> _Spelling:
    """ "acm sigops symposium …" is "symposium …", sponsored by the ACM. The last word stays,
    so "ACM SIGCOMM" is "sigcomm"."""
    organisations = set()
    start = 0
    while start < len(tokens) - 1 and _is_sponsor(tokens[start].word):
        word = tokens[start].word
        organisations.add("acm" if word in ACM_SPECIAL_INTEREST_GROUPS else word)
        start += 1
    return _Spelling(tokens[start:], frozenset(organisations))


def _same_sponsors(first: frozenset[str], second: frozenset[str]) -> bool:
    """Two names agree on their sponsors unless both name some and none in common."""
    return not first or not second or bool(first & second)


def _abbreviates(short: str, word: str) -> bool:
    """ "syst" abbreviates "systems", "natl" "national": same first letter, letters in order."""
    if not short or len(short) >= len(word) or short[0] != word[0]:
        return False
    letters = iter(word)
    return all(letter in letters for letter in short)


def _same_words(first: Sequence[_Token], second: Sequence[_Token]) -> bool:
    """Word for word equal, where a word written with a dot may abbreviate its partner."""
    return len(first) == len(second) and all(
        one.word == other.word
        or (one.abbreviated and _abbreviates(one.word, other.word))
        or (other.abbreviated and _abbreviates(other.word, one.word))
        for one, other in zip(first, second, strict=True)
    )


def _label_key(text: str) -> str:
    return " ".join(text.split()).casefold()


def _label_variants(label: str) -> list[str]:
    """ "USENIX ATC" is also "ATC"; "EuroMLSys@EuroSys" (a workshop at EuroSys) is also
    "EuroMLSys", never "EuroSys"."""
    variants = [label]
    if "@" in label:
        variants.append(label.split("@", 1)[0])
    words = label.split()
    while len(words) > 1 and _is_sponsor_word(words[0]):
        words = words[1:]
        variants.append(" ".join(words))
    return variants


# Matching ------------------------------------------------------------------------------------


class VenueMatcher:
    """Known venues indexed once, so each booktitle of an import is looked up cheaply."""

    def __init__(self, venues: Iterable[KnownVenue]):
        self._venues: dict[Hashable, KnownVenue] = {}
        self._by_label: defaultdict[str, set[Hashable]] = defaultdict(set)
        self._by_key: defaultdict[str, set[Hashable]] = defaultdict(set)
        self._by_bare_key: defaultdict[str, list[tuple[Hashable, frozenset[str]]]] = defaultdict(
            list
        )
        self._spellings: list[tuple[Hashable, tuple[_Token, ...], _Spelling]] = []
        self._workshops: set[Hashable] = set()
        for venue in venues:
            self._venues.setdefault(venue.key, venue)
            names = (venue.short_name, venue.full_name, *venue.aliases)
            if venue.kind == VenueKind.WORKSHOP or any(map(WORKSHOP_TEXT.search, names)):
                self._workshops.add(venue.key)
            for label in (venue.short_name, *venue.aliases):
                self._by_label[_label_key(label)].add(venue.key)
            for name in names:
                if not (tokens := _tokens(name)):
                    continue
                bare = _without_sponsors(tokens)
                self._by_key[_key(tokens)].add(venue.key)
                self._by_bare_key[_key(bare.tokens)].append((venue.key, bare.organisations))
                self._spellings.append((venue.key, tokens, bare))

    def match(self, text: str) -> KnownVenue | None:
        """The one known venue `text` names, or None when it names none or more than one."""
        found = self.candidates(text)
        return found[0] if len(found) == 1 else None

    def candidates(self, text: str) -> tuple[KnownVenue, ...]:
        """The venues the first deciding step found: one is a match, two or more mean the
        text is ambiguous (a reviewer may want to say which ones)."""
        reading = _read(text)
        if not reading.text:
            return ()
        names = list(reading.names)
        if len(names) > 1:
            names.append(" ".join(names))
        spellings = [
            (tokens, _without_sponsors(tokens)) for tokens in map(_tokens, names) if tokens
        ]
        # A workshop held with a conference is not the conference: "IEEE INFOCOM 2022 - IEEE
        # Conference on Computer Communications Workshops" is not INFOCOM.
        workshop = bool(WORKSHOP_TEXT.search(reading.text))
        for step in (self._by_labels, self._by_keys, self._by_bare_keys, self._by_abbreviation):
            found = step(reading, spellings)
            if workshop:
                found &= self._workshops
            if found:
                return tuple(venue for key, venue in self._venues.items() if key in found)
        return ()

    def _by_labels(self, reading: _Reading, spellings: _Spellings) -> set[Hashable]:
        written = [reading.text, PROCEEDINGS_PREFIX.sub("", reading.text), *reading.names]
        labels = [variant for label in reading.labels for variant in _label_variants(label)]
        labels += [variant for text in written for variant in _label_variants(text)]
        return {key for label in labels for key in self._by_label.get(_label_key(label), ())}

    def _by_keys(self, reading: _Reading, spellings: _Spellings) -> set[Hashable]:
        return {key for tokens, _ in spellings for key in self._by_key.get(_key(tokens), ())}

    def _by_bare_keys(self, reading: _Reading, spellings: _Spellings) -> set[Hashable]:
        return {
            key
            for _, bare in spellings
            for key, organisations in self._by_bare_key.get(_key(bare.tokens), ())
            if _same_sponsors(bare.organisations, organisations)
        }

    def _by_abbreviation(self, reading: _Reading, spellings: _Spellings) -> set[Hashable]:
        """dblp's journal names: "IEEE Trans. Parallel Distributed Syst.", "Comput. Commun."
        Only where a dot marks an abbreviation, and at least two words long: "S&P" abbreviates
        too many names to be read this way."""
        found: set[Hashable] = set()
        for tokens, bare in spellings:
            for key, known_tokens, known_bare in self._spellings:
                if not any(token.abbreviated for token in (*tokens, *known_tokens)):
                    continue
                if (
                    len(tokens) >= 2
                    and _same_words(tokens, known_tokens)
                    or (
                        len(bare.tokens) >= 2
                        and _same_sponsors(bare.organisations, known_bare.organisations)
                        and _same_words(bare.tokens, known_bare.tokens)
                    )
                ):
                    found.add(key)
        return found

    # Proposing ---------------------------------------------------------------------------

    def proposed_venue(self, text: str, *, default_kind: str | None = None) -> ProposedVenue | None:
        """The venue to create for a text that matched nothing, or None if it names nothing.

        The short name is the acronym when the text has one, without a year stuck to it
        ("SC20" is SC), else the full name, cut between words with "…" when longer than a
        short name may be; it is never one a known venue already uses.
        `default_kind` is what the BibTeX entry type says (@article: a journal); the words of
        the text overrule it only for preprints and workshops.
        """
        reading = _read(text)
        names = [_full_name(name) for name in reading.names]
        names = [name for name in names if name]
        labels = [_short_label(label) for label in reading.labels]
        if not names and not labels:
            return None
        meeting_names = [name for name in names if MEETING_TEXT.search(name)]
        full_name = (meeting_names or names or labels)[0]
        # Names as written: an acronym the text gives, else the name itself, cut between
        # words when long. Never initials the text does not give: "Proceedings of Machine
        # Learning and Systems" is not "PMLS", nor a Berkeley thesis's school "EECS DUCB".
        options = [*labels[:1], _cut(full_name, SHORT_NAME_MAX, mark="…")]
        return ProposedVenue(
            short_name=self._unused_short_name(options),
            full_name=_cut(full_name, FULL_NAME_MAX),
            kind=_kind(reading.text, default_kind),
        )

    def _unused_short_name(self, options: Sequence[str]) -> str:
        """The first option no known venue goes by: creating a venue under a name that is
        taken would file the paper under that other venue."""
        options = [_cut(option, SHORT_NAME_MAX) for option in options if option] or ["Venue"]
        for option in options:
            if _label_key(option) not in self._by_label:
                return option
        number = 2
        while True:
            numbered = f"{_cut(options[0], SHORT_NAME_MAX - 6)} ({number})"
            if _label_key(numbered) not in self._by_label:
                return numbered
            number += 1


def _short_label(label: str) -> str:
    """ "USENIX ATC" → "ATC", "IEEE INFOCOM" → "INFOCOM", "EuroMLSys@EuroSys" → "EuroMLSys";
    but "USENIX Security" stays whole: "Security" alone says too little."""
    words = label.split("@", 1)[0].split()
    while len(words) > 1 and _is_sponsor_word(words[0]) and _is_acronym(" ".join(words[1:])):
        words = words[1:]
    return " ".join(words)


def _full_name(name: str) -> str:
    """ "Proceedings of the 29th Symposium on Operating Systems Principles" → "Symposium on
    Operating Systems Principles". "Proceedings of the" stays where it is part of a journal's
    name ("Proceedings of the VLDB Endowment"): only a meeting, or a name with an edition
    after it, has proceedings (and so has what a citation calls "In Proc. of")."""
    prefix = PROCEEDINGS_PREFIX.match(name)
    stripped = name[prefix.end() :] if prefix else name
    is_meeting = bool(MEETING_TEXT.search(name))
    edition_follows = bool(prefix) and bool(EDITION.match(stripped) or YEAR.match(stripped))
    cited = prefix is not None and bool(CITED_PROCEEDINGS.match(prefix[0]))
    if is_meeting or edition_follows or cited:
        name = EDITION.sub(" ", stripped)
    name = LONE_NUMBER.sub(" ", YEAR.sub(" ", name))
    name = re.sub(r"\s+,", ",", " ".join(name.split()))
    return name.strip(" ,;:-")


def _cut(text: str, limit: int, *, mark: str = "") -> str:
    """At most `limit` characters, cut between words, `mark` saying where."""
    if len(text) <= limit:
        return text
    limit -= len(mark)
    return text[: limit + 1].rsplit(" ", 1)[0][:limit].rstrip(" ,;:-") + mark


def _kind(text: str, default_kind: str | None) -> str:
    if PREPRINT_TEXT.search(text):
        return VenueKind.PREPRINT_SERVER
    if WORKSHOP_TEXT.search(text) and default_kind in (None, VenueKind.CONFERENCE):
        return VenueKind.WORKSHOP
    if default_kind:
        return default_kind
    if JOURNAL_TEXT.search(text):
        return VenueKind.JOURNAL
    if MEETING_TEXT.search(text):
        return VenueKind.CONFERENCE
    return VenueKind.OTHER
