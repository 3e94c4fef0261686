"""LaTeX to Unicode in time linear in the text's length, giving what pylatexenc gives.

pylatexenc reads a character at a time and grows the text between two LaTeX tokens by string
concatenation on an attribute, which CPython cannot do in place: time grows with the square of
the longest plain run (1 MB of plain words took 38 s). It also builds its whole macro table
again for every call made without one (most of the time spent on short author names).

So a value is cut, at spaces where no group, math, environment, comment or macro argument can
span the cut, into short pieces. A piece without any character LaTeX gives a meaning to is
already its own text; the others go to pylatexenc one by one, with one shared macro table, and
are remembered, since BibTeX repeats its names and @string values. The test module checks,
on generated text, that the result is what one pylatexenc call over the whole value gives.
"""

import re
from functools import lru_cache
from typing import Any

from pylatexenc import latexwalker
from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, get_default_latex_context_db

# Characters that can make text decode to something else. `--`, `''`, `` ` `` and `~` are
# pylatexenc's specials (dashes, quotes, a no-break space); the rest start macros, groups,
# math, comments, alignment or parameters.
MARKUP_CHARACTERS = frozenset("\\{}$%&~#^_`")
MARKUP_PAIRS = ("--", "''")

# What `pieces` reads at once: a run of spaces (only the first can cut), and a run of characters
# that open or close nothing (only the first can end a macro's arguments) with the spaces after.
WHITESPACE_RUN = re.compile(r"\s+")
ORDINARY_RUN = re.compile(r"[^\s\\{}$%\[\]]+(?P<spaces>\s*)")

# A piece grows past this length only when no cut is possible inside it (a long group).
PIECE_CHARACTERS = 1


class LinearLatexDecoder(LatexNodes2Text):  # type: ignore[misc]  # pylatexenc has no types
    """pylatexenc's decoder, taking the same arguments, with `latex_to_text` fed in pieces; a
    subclass because bibtexparser's `LatexDecodingMiddleware` accepts nothing else."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.walker_context = latexwalker.get_default_latex_context_db()
        # Bound on memory, not on correctness: a piece not remembered is decoded again.
        self._decode_piece = lru_cache(maxsize=8192)(self._decode_piece_uncached)

    def latex_to_text(self, latex: str) -> str:
        if not has_markup(latex):
            return latex
        return "".join(
            self._decode_piece(piece) if has_markup(piece) else piece for piece in pieces(latex)
        )

    def math_node_to_text(self, node: Any) -> str:
        """Math as readable text ("$O(n^2)$" is "O(n²)"): pylatexenc's text for its macros
        (α, ≤, ×), with superscripts and subscripts that Unicode has written as such."""
        latex = node.latex_verbatim()
        scripted = scripts_as_unicode(latex)
        if scripted != latex:
            walker = latexwalker.LatexWalker(
                scripted, latex_context=self.walker_context, tolerant_parsing=True
            )
            nodes = walker.get_latex_nodes()[0]
            if len(nodes) == 1:
                node = nodes[0]
        text: str = super().math_node_to_text(node)
        return " ".join(text.split())  # display math too is a run of text in a title

    def _decode_piece_uncached(self, piece: str) -> str:
        walker = latexwalker.LatexWalker(
            piece, latex_context=self.walker_context, tolerant_parsing=True
        )
        try:
            text: str = self.nodelist_to_text(walker.get_latex_nodes()[0])
        except Exception:  # pylatexenc's own bugs, e.g. IndexError for \href without arguments
            return piece  # kept as written: staff see it in the review
        return text


SUPERSCRIPTS = dict(
    zip(
        "0123456789+-=()abcdefghijklmnoprstuvwxyz",
        "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻ",
        strict=True,
    )
)
SUBSCRIPTS = dict(
    zip("0123456789+-=()aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ", strict=True)
)
# "^2", "^{10}", "_i", "_{ij}": a script of one character or a braced group without macros.
SCRIPT = re.compile(r"(?P<sign>[\^_])(?:\{(?P<group>[^{}\\\s]*)\}|(?P<single>[A-Za-z0-9+\-=()]))")


def scripts_as_unicode(math: str) -> str:
    """Superscripts and subscripts written with Unicode's characters for them where every
    character of the script has one; others are left as written."""

    def replace(found: re.Match[str]) -> str:
        table = SUPERSCRIPTS if found["sign"] == "^" else SUBSCRIPTS
        script = found["group"] if found["group"] is not None else found["single"]
        if script and all(char in table for char in script):
            # "{}" ends a macro before it: "\\alpha_i" is "\\alpha{}ᵢ", never "\\alphaᵢ".
            return "{}" + "".join(table[char] for char in script)
        return found[0]

    return SCRIPT.sub(replace, math)


def has_markup(text: str) -> bool:
    return not MARKUP_CHARACTERS.isdisjoint(text) or any(pair in text for pair in MARKUP_PAIRS)


def pieces(text: str) -> list[str]:
    """The text cut where nothing before the cut can reach past it: outside every group, math,
    environment and comment, and not after a macro that may still take arguments. Cuts fall
    before a space that ends a word whose last macro is complete, or before a backslash that
    follows an ordinary character or a group ("\\'e|\\'a", "\\v{s}|\\'a"). Joined, the pieces
    are the text."""
    cutter = _Cutter(text)
    index, length = 0, len(text)
    while index < length:
        index += cutter.read(index)
    cuts = [*cutter.cuts, length]
    return [text[start:end] for start, end in zip(cuts, cuts[1:], strict=False) if end > start]


class _Cutter:
    """What `pieces` knows at each character of its text, and where it has cut so far."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.cuts = [0]
        self.depth = 0
        self.environments = 0
        self.math = ""  # "$", "$$", "\\(" or "\\[" while inside math
        self.comment = False
        # The last thing at the top level was a macro, or a macro and groups: what comes next
        # may be its argument, so no cut until an ordinary character or a word that is not a
        # group.
        self.open_macro = False
        self.word_start: int | None = None  # where the current word began, None between words
        self.group_closed_at = -2  # where the last group at the top level closed

    @property
    def top_level(self) -> bool:
        return not (self.depth or self.environments or self.math)

    def cut(self, index: int) -> None:
        if index - self.cuts[-1] >= PIECE_CHARACTERS:
            self.cuts.append(index)

    def read(self, index: int) -> int:
        """Take in the character at `index`; how many characters were read."""
        char = self.text[index]
        if self.comment:
            if char == "\n":
                self.comment, self.open_macro = False, True
            return 1
        top_level = self.top_level
        if char.isspace():
            self.end_word(index, top_level)
            return _run_length(WHITESPACE_RUN, self.text, index)
        if self.word_start is None:
            self.word_start = index
            if top_level and char not in "{[":
                self.open_macro = self.open_macro and char == "\\"
        if char == "\\":
            return self.read_macro(index, top_level, word_start=self.word_start)
        if char == "$":
            return self.read_dollar(index)
        if char in "%{}[]":
            self.read_group_or_comment(index, char)
            return 1
        if top_level:
            self.open_macro = False  # an ordinary character: the macro before it has its argument
        # The ordinary characters after it change nothing more, and the spaces after them end
        # the word: read them at once.
        run = ORDINARY_RUN.match(self.text, index)
        if run is None:  # never: `char` is ordinary
            return 1
        if run["spaces"]:
            self.end_word(run.start("spaces"), top_level)
        return run.end() - index

    def end_word(self, index: int, top_level: bool) -> None:
        """A space at `index`: a word that ended here may be cut after."""
        if self.word_start is not None:
            self.word_start = None
            if top_level and not self.open_macro:
                self.cut(index)

    def read_macro(self, index: int, top_level: bool, *, word_start: int) -> int:
        """A backslash: an escaped character, or a macro's name (which may open math or an
        environment)."""
        text = self.text
        after_group = self.group_closed_at == index - 1
        if top_level and (after_group or not self.open_macro) and index > word_start:
            self.cut(index)
        following = text[index + 1 : index + 2]
        if following in ("(", "[") and not self.math:
            self.math = "\\" + following
        elif following in (")", "]") and self.math == "\\" + {")": "(", "]": "["}[following]:
            self.math = ""
        elif text.startswith("begin", index + 1):
            self.environments += 1
        elif text.startswith("end", index + 1):
            self.environments = max(self.environments - 1, 0)
        if top_level:
            self.open_macro = True
        step = 2  # an escaped character, or the first letter of a macro's name
        length = len(text)
        while following.isalpha() and index + step < length and text[index + step].isalpha():
            step += 1  # the rest of the macro's name
        return step

    def read_dollar(self, index: int) -> int:
        sign = "$$" if self.text.startswith("$$", index) else "$"
        if not self.math:
            self.math = sign
        elif self.math == sign:
            self.math = ""
        return len(sign)

    def read_group_or_comment(self, index: int, char: str) -> None:
        if char == "%":
            self.comment = True
        elif char == "{":
            self.depth += 1
        elif char == "}":
            self.depth = max(self.depth - 1, 0)
            if self.top_level:
                self.group_closed_at = index


def _run_length(run: re.Pattern[str], text: str, index: int) -> int:
    found = run.match(text, index)
    return found.end() - index if found else 1


def _latex_decoder() -> LinearLatexDecoder:
    """pylatexenc's decoder set up as bibtexparser's own, \\url{x} is x, but math as text;
    fed in pieces, so that time grows with length and not its square."""
    context = get_default_latex_context_db()
    context.add_context_category(
        "bibtex", prepend=True, macros=[MacroTextSpec("url", simplify_repl="%s")]
    )
    return LinearLatexDecoder(latex_context=context, math_mode="text")


# The one decoder every read uses: its table of macros is built once, its pieces remembered.
LATEX_DECODER = _latex_decoder()

# "$...$" and "$$...$$" in text that is otherwise not LaTeX (arXiv's titles and abstracts,
# where "5%" is a percentage, not a comment).
MATH_SPAN = re.compile(r"\$\$[^$]+\$\$|\$[^$]+\$")


def math_as_text(text: str) -> str:
    """The math in plain text read as text ("$O(n^2)$" is "O(n²)"), the rest left as it is."""
    return MATH_SPAN.sub(lambda found: LATEX_DECODER.latex_to_text(found[0]), text)
