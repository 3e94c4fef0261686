"""Times LaTeX decoding and BibTeX reading: pylatexenc in one call against our decoder in
pieces, the hostile files from issue 12, and a realistic file at 1,000 to 25,000 entries.

    make bench-bibtex   (or: .venv/bin/python benchmarks/bibtex_reading.py [--quick])

Nothing touches a database: reading a file is pure computation. Each figure is the best of
three runs; pylatexenc's own figure stops at 256 KB with --quick (1 MB takes about 20 s).
"""

import argparse
import os
import random
import sys
import time
from pathlib import Path

# The project's root in place of this folder, whose http.py would hide the standard library's
# `http` from Django (as benchmarks/http.py does for itself).
sys.path[0] = str(Path(__file__).resolve().parent.parent)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("SECRET_KEY", "benchmark-only")

import django  # noqa: E402

django.setup()

from pylatexenc.latex2text import LatexNodes2Text  # noqa: E402

from publications.bibtex import parse_bibtex  # noqa: E402
from publications.bibtex.latex import LATEX_DECODER  # noqa: E402


def best_of(runs: int, function) -> float:
    times = []
    for _ in range(runs):
        LATEX_DECODER._decode_piece.cache_clear()
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def abstract_text(size: int) -> str:
    sentence = "Caching GPU kernels in {\\'E}cole's M{\\\"u}ller cluster -- fast. "
    return (sentence * (size // len(sentence) + 1))[:size]


def realistic_file(entries: int) -> str:
    rng = random.Random(entries)
    words = [
        "caching",
        "gpu",
        "kernels",
        "learning",
        "distributed",
        "systems",
        "network",
        "graph",
        "model",
        "data",
    ]
    blocks = []
    for number in range(entries):
        title = " ".join(rng.choice(words) for _ in range(8)) + f" {{\\'e}}tude {number}"
        authors = " and ".join(
            [f'M{{\\"u}}ller{rng.randint(0, 999)}, Hans']
            + [f"Author{rng.randint(0, 9999)} Name" for _ in range(3)]
        )
        blocks.append(
            f"@inproceedings{{key{number},\n  title = {{{title}}},\n  author = {{{authors}}},\n"
            f"  booktitle = {{Symposium on Things (SOT '24)}},\n  year = {2000 + number % 25},\n}}\n"
        )
    return "\n".join(blocks)


def hostile_files() -> dict[str, str]:
    big_string = '@string{s = "' + "x" * 1000 + '"}\n'
    return {
        "5 KB: a 1,000-byte @string used 1,000 times": big_string
        + "@article{k, title = "
        + " # ".join(["s"] * 1000)
        + "}\n",
        "17 KB: the same @string used 4,000 times": big_string
        + "@article{k, title={T}, author = "
        + " # ".join(["s"] * 4000)
        + "}\n",
        "20 KB: 10,000 nested braces in author": "@article{deep, title={T}, author={"
        + "{" * 10_000
        + "x"
        + "}" * 10_000
        + "}}\n",
        "10 KB: 5,000 nested braces in author": "@article{deep, title={T}, author={"
        + "{" * 5000
        + "x"
        + "}" * 5000
        + "}}\n",
        "18 KB: 6,000 accents in one title": "@article{d, title={" + "\\'e" * 6000 + "}}\n",
        "19 KB: a field of unknown macros": "@article{u, title={T}, note={"
        + "".join(f"\\m{number}x{{{number}}}" for number in range(1400))
        + "}}\n",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip pylatexenc at 1 MB")
    quick = parser.parse_args().quick
    plain_pylatexenc = LatexNodes2Text(math_mode="verbatim")

    print("LaTeX decoding of one value (an abstract with an accent every ~60 characters)")
    print(f"{'size':>8}  {'pylatexenc':>11}  {'in pieces':>10}")
    for size in (16 * 1024, 64 * 1024, 256 * 1024, 1024 * 1024):
        text = abstract_text(size)
        runs = 1 if size > 64 * 1024 else 3
        whole = "(skipped)"
        if not (quick and size > 256 * 1024):
            whole = f"{best_of(runs, lambda: plain_pylatexenc.latex_to_text(text)):.3f} s"  # noqa: B023
        pieces = best_of(3, lambda: LATEX_DECODER.latex_to_text(text))  # noqa: B023
        print(f"{size // 1024:>5} KB  {whole:>11}  {pieces:>8.3f} s")

    print("\nHostile files through parse_bibtex (each refused or read, never a hang)")
    for name, text in hostile_files().items():
        seconds = best_of(3, lambda: parse_bibtex(text))  # noqa: B023
        problems = parse_bibtex(text).problems
        outcome = f"refused: {str(problems[0])[:60]}…" if problems else "read"
        print(f"  {seconds:6.3f} s  {name} ({len(text.encode()):,} B) — {outcome}")

    print("\nA realistic file through parse_bibtex")
    for entries in (1000, 4000, 7500):
        text = realistic_file(entries)
        seconds = best_of(1, lambda: parse_bibtex(text))  # noqa: B023
        print(
            f"  {entries:>6,} entries ({len(text.encode()) / 1024 / 1024:.2f} MB): {seconds:.2f} s"
        )
    text = "".join(
        f"@misc{{k{number:05}, title={{Paper {number}}}, year=2024}}\n" for number in range(25_000)
    )
    seconds = best_of(1, lambda: parse_bibtex(text))
    print(f"  25,000 short entries ({len(text.encode()) / 1024 / 1024:.2f} MB): {seconds:.2f} s")


if __name__ == "__main__":
    main()
