"""Bounds on a BibTeX file, checked on the text and its split blocks before anything expands
or decodes them.

Each bound stops a way a small file costs a lot: @string expansion multiplies text (one
1,000-byte @string used 1,000 times is 1 MB from a 5 KB file), pylatexenc recurses once per
brace level (10,000 nested braces overflowed Python's stack) and spends about 10 µs on each
character of LaTeX markup it has not seen before. A lab's real list is far inside every bound.
Each bound is a module constant: changing one is a code change with its test, not an
operator's setting.
"""

import itertools
import re
from collections.abc import Mapping
from dataclasses import dataclass

from bibtexparser.library import Library
from bibtexparser.model import Block, Entry, String

from publications.bibtex.latex import has_markup, pieces

# An upload larger than this is refused before it is read: a lab's whole list is far smaller.
MAX_BIBTEX_BYTES = 2 * 1024 * 1024
# The admin's confirm step is tested with this many; more is more than a lab has.
MAX_ENTRIES = 25_000
# Any one field, as written and after @string expansion: an abstract is a few thousand.
MAX_FIELD_CHARACTERS = 20_000
# A list of names is read whole up to this: a physics collaboration's 3,000 authors of about
# 40 characters each; the file's own size bounds the total.
MAX_NAME_LIST_CHARACTERS = 200_000
NAME_LIST_FIELDS = frozenset({"author", "editor"})
# Every field of the file after @string expansion, together.
MAX_EXPANDED_CHARACTERS = 8 * 1024 * 1024
# Braces inside braces: real BibTeX needs three or four ({{\"u}} in a braced title).
MAX_BRACE_DEPTH = 20
# Entry keys travel in forms and messages.
MAX_KEY_CHARACTERS = 200
# LaTeX that pylatexenc must decode, counting each distinct piece once (a repeated accent or
# @string is decoded once): about 2 s of pylatexenc at the most.
MAX_LATEX_CHARACTERS = 200_000

# Where an entry starts, to name it in a message when the parser could not.
ENTRY_START = re.compile(r"@\s*(?P<type>\w+)\s*[{(]\s*(?P<key>[^,\s]*)")
# Where an entry starts as bibtexparser sees one (@comment…, @preamble… and @string… blocks are
# not entries), at the start of a line: an @ inside a value is no entry, and a file that puts
# entries side by side is still counted by within_bounds() after the split.
COUNTED_ENTRY = re.compile(
    r"^[ \t]*@(?!(?:comment|preamble|string))\w*[ \t]*[{(]", re.IGNORECASE | re.MULTILINE
)


@dataclass(frozen=True)
class Exceeded:
    """A bound a block goes past. `block` is None for the file as a whole."""

    line: int | None
    key: str
    message: str
    block: Block | None = None


def check_size(text: str) -> Exceeded | None:
    encoded = text.encode()
    if len(encoded) <= MAX_BIBTEX_BYTES:
        return None
    return size_exceeded(head=encoded[:MAX_BIBTEX_BYTES], size=len(encoded))


def size_exceeded(*, head: bytes, size: int) -> Exceeded:
    """Where in the file the size limit falls (the line, and the entry that holds it), from
    its first MAX_BIBTEX_BYTES bytes, so staff know where to split it."""
    text = head.decode("utf-8", errors="ignore")
    key = ""
    if (at := text.rfind("@")) >= 0 and (start := ENTRY_START.match(text, at)):
        key = start["key"]
    return Exceeded(
        line=text.count("\n") + 1,
        key=key[:MAX_KEY_CHARACTERS],
        message=(
            f"the file is {size:,} bytes, larger than {MAX_BIBTEX_BYTES // (1024 * 1024)} MB, "
            "the most an import reads; it passes that limit here. Split it into smaller files."
        ),
    )


def count_entries(text: str) -> int:
    """Entries counted from where they start, in milliseconds: bibtexparser's split alone takes
    seconds on 25,000 entries."""
    return sum(1 for _ in COUNTED_ENTRY.finditer(text))


def check_entry_count(text: str) -> Exceeded | None:
    """More entries than an import reads, told before bibtexparser splits the file."""
    starts = COUNTED_ENTRY.finditer(text)
    first_extra = next(itertools.islice(starts, MAX_ENTRIES, None), None)
    if first_extra is None:
        return None
    count = MAX_ENTRIES + 1 + sum(1 for _ in starts)
    at = text.index("@", first_extra.start())
    key = start["key"] if (start := ENTRY_START.match(text, at)) else ""
    return Exceeded(
        line=text.count("\n", 0, at) + 1,
        key=key[:MAX_KEY_CHARACTERS],
        message=too_many_entries(count),
    )


def too_many_entries(count: int) -> str:
    return (
        f"the file has {count:,} entries; an import reads at most {MAX_ENTRIES:,}, "
        "and this is the first one past that. Split the file."
    )


def within_bounds(library: Library) -> tuple[Library, list[Exceeded]]:
    """The blocks that may be expanded and decoded, and every bound the others go past, in
    file order. Past the number of entries nothing is read; past the expanded size or the
    LaTeX to decode, nothing from that entry on."""
    exceeded: list[Exceeded] = []
    kept: list[Block] = []
    string_lengths = {
        key.casefold(): len(_unenclosed(string.value))
        for key, string in library.strings_dict.items()
    }
    entries = library.entries
    if len(entries) > MAX_ENTRIES:
        first_extra = entries[MAX_ENTRIES]
        message = too_many_entries(len(entries))
        return Library(), [
            Exceeded(_line(first_extra), first_extra.key[:MAX_KEY_CHARACTERS], message)
        ]
    expanded_total = 0
    latex_pieces: set[str] = set()
    latex_total = 0
    for block in library.blocks:
        if isinstance(block, String):
            values = {"": block.value}
        elif isinstance(block, Entry):
            values = {field.key: field.value for field in block.fields}
        else:
            kept.append(block)
            continue
        key = block.key if isinstance(block, Entry | String) else ""
        problem = _check_block(block, values, string_lengths)
        if problem:
            exceeded.append(Exceeded(_line(block), key[:MAX_KEY_CHARACTERS], problem, block))
            continue
        if isinstance(block, String):
            kept.append(block)
            continue
        expanded_total += sum(_expanded_length(value, string_lengths) for value in values.values())
        for value in map(_unenclosed, values.values()):
            if has_markup(value):
                for piece in pieces(value):
                    if piece not in latex_pieces and has_markup(piece):
                        latex_pieces.add(piece)
                        latex_total += len(piece)
        if expanded_total > MAX_EXPANDED_CHARACTERS:
            exceeded.append(
                Exceeded(
                    _line(block),
                    key[:MAX_KEY_CHARACTERS],
                    f"with this entry, @string expansion makes the file's fields longer than "
                    f"{MAX_EXPANDED_CHARACTERS:,} characters together; it and the entries after "
                    "it are not read. Use fewer @string references, or split the file.",
                )
            )
            break
        if latex_total > MAX_LATEX_CHARACTERS:
            exceeded.append(
                Exceeded(
                    _line(block),
                    key[:MAX_KEY_CHARACTERS],
                    f"with this entry, the file holds more than {MAX_LATEX_CHARACTERS:,} "
                    "characters of distinct LaTeX markup to decode; it and the entries after it "
                    "are not read. Split the file, or write accents as Unicode.",
                )
            )
            break
        kept.append(block)
    return Library(blocks=kept, fail_on_duplicate_key=False), exceeded


def _check_block(block: Block, values: Mapping[str, object], string_lengths: dict[str, int]) -> str:
    if isinstance(block, Entry | String) and len(block.key) > MAX_KEY_CHARACTERS:
        return (
            f"the key is {len(block.key):,} characters long; at most {MAX_KEY_CHARACTERS} are read."
        )
    for name, value in values.items():
        if not isinstance(value, str):
            continue
        field = f"the field {name}" if name else "the @string"
        longest = (
            MAX_NAME_LIST_CHARACTERS
            if name.casefold() in NAME_LIST_FIELDS
            else MAX_FIELD_CHARACTERS
        )
        if (written := len(_unenclosed(value))) > longest:
            return f"{field} is {written:,} characters long; at most {longest:,} are read."
        if (depth := brace_depth(value)) > MAX_BRACE_DEPTH:
            return (
                f"{field} nests braces {depth:,} deep; at most {MAX_BRACE_DEPTH} levels are read."
            )
        expanded = _expanded_length(value, string_lengths)
        if expanded > longest:
            return (
                f"{field} becomes {expanded:,} characters long once its @string references are "
                f"expanded; at most {longest:,} are read."
            )
    return ""


def brace_depth(value: str) -> int:
    """The deepest nesting of braces, counting every brace as BibTeX does."""
    depth = deepest = 0
    for char in value:
        if char == "{":
            depth += 1
            deepest = max(deepest, depth)
        elif char == "}":
            depth -= 1
    return deepest


def concatenated_parts(value: str) -> list[str]:
    """`nsdi # " (NSDI '24)"` as its parts, split at the `#` outside braces and quotes."""
    parts, depth, quoted, start = [], 0, False, 0
    for index, char in enumerate(value):
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
        elif char == '"' and depth == 0:
            quoted = not quoted
        elif char == "#" and depth == 0 and not quoted:
            parts.append(value[start:index].strip())
            start = index + 1
    parts.append(value[start:].strip())
    return parts


def _expanded_length(value: object, string_lengths: dict[str, int]) -> int:
    """How long a raw value becomes once its @string references are replaced, without
    building it."""
    if not isinstance(value, str):
        return 0
    if value[:1] in ("{", '"'):
        parts = [value] if "#" not in value else concatenated_parts(value)
    else:
        parts = concatenated_parts(value)
    return sum(string_lengths.get(part.casefold(), len(part)) for part in parts)


def _unenclosed(value: object) -> str:
    value = str(value).strip()
    return value[1:-1] if len(value) >= 2 and value[0] + value[-1] in ("{}", '""') else value


def _line(block: Block) -> int | None:
    return block.start_line + 1 if block.start_line is not None else None
