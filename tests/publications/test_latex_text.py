"""LaTeX decoding in pieces gives what one pylatexenc call over the whole value gives."""

import random

import pytest
from pylatexenc.latex2text import LatexNodes2Text

from publications.bibtex.latex import LATEX_DECODER, pieces

# Well-formed LaTeX as BibTeX files hold it: accents with and without braces or spaces,
# macros taking the next word or group, math of each kind, dashes, quotes, comments,
# escaped specials and an environment.
TOKENS = [
    "word", "Caf\\'e", "\\'e", "\\' e", '{\\"U}ber', "M{\\\"u}ller", "\\emph{x y}", "\\emph {x}",
    "\\textbf{a} b", "$x^2$", "$$x$$", "\\(x\\)", "\\[x\\]", "--", "---", "``", "''", "'", "~",
    "%c\n", "\\%", "\\\\", "\\begin{itemize} \\item a \\end{itemize}", "{a b}", "{\\em x y}",
    "\\bf", "\\&", "\\ss", "\\o", "!`", "?`", "\\c{c}", "\\c c", "\\url{http://x.org/a_b}",
    "a-b", "\\{", "\\}", "\\$", "&", "#", "\\v{s}", "[x]", "\\emph{a {b} c}", "{\\bf a}", "x_1",
    "\\emph\n{x}", "\\'\n{e}",
]  # fmt: skip
SEPARATORS = [" ", "  ", "\n", "\t", " \n ", "\n\n", ""]


def whole(text: str) -> str:
    """pylatexenc's own decoding, in one call, with the same settings."""
    return LatexNodes2Text.latex_to_text(LATEX_DECODER, text)


def generated(rng: random.Random, tokens: int) -> str:
    return "".join(rng.choice(TOKENS) + rng.choice(SEPARATORS) for _ in range(tokens))


@pytest.mark.parametrize("seed", range(4))
def test_pieces_decode_to_what_the_whole_value_decodes_to(seed):
    rng = random.Random(seed)
    for _ in range(500):
        text = generated(rng, rng.randint(1, 25))
        assert LATEX_DECODER.latex_to_text(text) == whole(text), text


def test_pieces_join_back_into_the_text_and_cut_plain_runs():
    rng = random.Random(9)
    for _ in range(200):
        text = generated(rng, 30)
        assert "".join(pieces(text)) == text
    assert len(pieces("Caf\\'e " * 1000)) > 100


def test_a_long_abstract_decodes_like_pylatexenc():
    abstract = "We cache GPU kernels in {\\'E}cole's M{\\\"u}ller cluster -- fast. " * 300
    assert LATEX_DECODER.latex_to_text(abstract) == whole(abstract)


def test_text_without_markup_is_returned_as_it_is():
    text = "Plain words, O'Brien's 50% (not a comment without the sign)\n\twith spaces  kept"
    text = text.replace("%", " percent")
    assert LATEX_DECODER.latex_to_text(text) is text


def test_what_pylatexenc_cannot_read_is_kept_as_written():
    # pylatexenc raises IndexError for \href without its arguments.
    assert LATEX_DECODER.latex_to_text("see \\href") == "see \\href"
