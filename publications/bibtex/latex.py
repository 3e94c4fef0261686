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

from functools import lru_cache

from pylatexenc import latexwalker
from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec, get_default_latex_context_db

# Characters that can make text decode to something else. `--`, `''`, `` ` `` and `~` are
# pylatexenc's specials (dashes, quotes, a no-break space); the rest start macros, groups,
# math, comments, alignment or parameters.
MARKUP_CHARACTERS = frozenset("\\{}$%&~#^_`")
MARKUP_PAIRS = ("--", "''")

# A piece grows past this length only when no cut is possible inside it (a long group).
PIECE_CHARACTERS = 1


class LinearLatexDecoder(LatexNodes2Text):
    """pylatexenc's decoder, taking the same arguments, with `latex_to_text` fed in pieces; a
    subclass because bibtexparser's `LatexDecodingMiddleware` accepts nothing else."""

    def __init__(self, **options):
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

    def _decode_piece_uncached(self, piece: str) -> str:
        walker = latexwalker.LatexWalker(
            piece, latex_context=self.walker_context, tolerant_parsing=True
        )
        try:
            return self.nodelist_to_text(walker.get_latex_nodes()[0])
        except Exception:  # pylatexenc's own bugs, e.g. IndexError for \href without arguments
            return piece  # kept as written: staff see it in the review


def has_markup(text: str) -> bool:
    return not MARKUP_CHARACTERS.isdisjoint(text) or any(pair in text for pair in MARKUP_PAIRS)


def pieces(text: str) -> list[str]:
    """The text cut where nothing before the cut can reach past it: outside every group, math,
    environment and comment, and not after a macro that may still take arguments. Cuts fall
    before a space that ends a word whose last macro is complete, or before a backslash that
    follows an ordinary character or a group ("\\'e|\\'a", "\\v{s}|\\'a"). Joined, the pieces
    are the text."""
    cuts = [0]
    depth = environments = 0
    math = ""  # "$", "$$", "\\(" or "\\[" while inside math
    comment = False
    # The last thing at the top level was a macro, or a macro and groups: what comes next may
    # be its argument, so no cut until an ordinary character or a word that is not a group.
    open_macro = False
    word_start = None  # where the current word began, None between words
    group_closed_at = -2  # where the last group at the top level closed
    index, length = 0, len(text)
    while index < length:
        char = text[index]
        if comment:
            if char == "\n":
                comment, open_macro = False, True
            index += 1
            continue
        top_level = not (depth or environments or math)
        if char.isspace():
            if word_start is not None:
                word_start = None
                if top_level and not open_macro and index - cuts[-1] >= PIECE_CHARACTERS:
                    cuts.append(index)
            index += 1
            continue
        if word_start is None:
            word_start = index
            if top_level and char not in "{[":
                open_macro = open_macro and char == "\\"
        step = 1
        if char == "\\":
            after_group = group_closed_at == index - 1
            cut_allowed = top_level and (after_group or not open_macro) and index > word_start
            if cut_allowed and index - cuts[-1] >= PIECE_CHARACTERS:
                cuts.append(index)
            following = text[index + 1 : index + 2]
            if following in ("(", "[") and not math:
                math = "\\" + following
            elif following in (")", "]") and math == "\\" + {")": "(", "]": "["}[following]:
                math = ""
            elif text.startswith("begin", index + 1):
                environments += 1
            elif text.startswith("end", index + 1):
                environments = max(environments - 1, 0)
            if top_level:
                open_macro = True
            step = 2  # an escaped character, or the first letter of a macro's name
            while following.isalpha() and index + step < length and text[index + step].isalpha():
                step += 1  # the rest of the macro's name
        elif char == "%":
            comment = True
        elif char == "{":
            depth += 1
        elif char == "}":
            depth = max(depth - 1, 0)
            if not (depth or environments or math):
                group_closed_at = index
        elif char == "$":
            sign = "$$" if text.startswith("$$", index) else "$"
            if not math:
                math = sign
            elif math == sign:
                math = ""
            step = len(sign)
        elif top_level and char not in "[]":
            open_macro = False  # an ordinary character: the macro before it has its argument
        index += step
    cuts.append(length)
    return [text[start:end] for start, end in zip(cuts, cuts[1:], strict=False) if end > start]


def _latex_decoder() -> LinearLatexDecoder:
    """pylatexenc's decoder set up as bibtexparser's own: math kept as written, \\url{x} is x;
    fed in pieces, so that time grows with length and not its square."""
    context = get_default_latex_context_db()
    context.add_context_category(
        "bibtex", prepend=True, macros=[MacroTextSpec("url", simplify_repl="%s")]
    )
    return LinearLatexDecoder(latex_context=context, math_mode="verbatim")


# The one decoder every read uses: its table of macros is built once, its pieces remembered.
LATEX_DECODER = _latex_decoder()
