"""The BibTeX export read back by the programs researchers feed it to: classic `bibtex` with the
standard styles (plain.bst writes names whole, abbrv.bst abbreviates given names, where a bare
accent macro falls apart), biber (biblatex's reader), pandoc 2.17 (which reads it as citeproc
does) and the portal's own import (bibtexparser). Each compares the names (given and family),
titles and venues with what staff entered, field by field."""

import json
import re
import subprocess
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from xml.etree import ElementTree

import pytest
from pylatexenc.latex2text import LatexNodes2Text

from publications import exports
from publications.bibtex import parse_bibtex
from publications.models import Publication
from tests.factories import make_publication, make_venue

pytestmark = pytest.mark.django_db


@dataclass(frozen=True)
class Name:
    stored: str
    given: str
    family: str  # with its particle ("de la Fuente")
    abbreviated: str  # as abbrv.bst prints it

    @property
    def whole(self) -> str:
        return f"{self.given} {self.family}".strip()


NAMES = [
    Name("José Núñez", "José", "Núñez", "J. Núñez"),
    Name("João Gonçalves", "João", "Gonçalves", "J. Gonçalves"),
    Name("Jean-Pierre Lévy-Bruhl", "Jean-Pierre", "Lévy-Bruhl", "J.-P. Lévy-Bruhl"),
    Name("Émile Ñúñez", "Émile", "Ñúñez", "É. Ñúñez"),
    Name("José Ángel Ortíz", "José Ángel", "Ortíz", "J. Á. Ortíz"),
    Name("Ángel de la Fuente", "Ángel", "de la Fuente", "Á. de la Fuente"),
    Name("张伟", "", "张伟", "张伟"),
]
# LaTeX's special characters, and the letters and signs of Latin-1, Latin Extended A and B,
# general punctuation and Latin Extended Additional.
CHARACTERS = [
    *"&%$#_{}~^\\",
    *(
        chr(code)
        for code in [*range(0xA1, 0x250), *range(0x2010, 0x2030), *range(0x1E00, 0x1F00)]
        if unicodedata.category(chr(code))[0] in "LPS"
    ),
]
VENUE = "IEEE Symposium on Security and Privacy (IEEE S&P)"
TITLES = [
    "Caching 100% of R&D_costs #1 for $5 – Fast, or Not — GPU Kernels",
    "Ñandú: Accents in Titles",
]


@pytest.fixture
def papers() -> list[Publication]:
    venue = make_venue(short_name="IEEE S&P", full_name="IEEE Symposium on Security and Privacy")
    return [
        make_publication(
            title=TITLES[0],
            venue=venue,
            type=Publication.Type.CONFERENCE_PAPER,
            authors=[name.stored for name in NAMES[:4]],
        ),
        make_publication(
            title=TITLES[1],
            venue=venue,
            type=Publication.Type.CONFERENCE_PAPER,
            authors=[name.stored for name in NAMES[4:]],
        ),
    ]


@pytest.fixture
def bib_file(papers, tmp_path):
    path = tmp_path / "refs.bib"
    path.write_text(exports.bibtex(Publication.objects.published().for_export()))
    return path


def plain(latex: str) -> str:
    """LaTeX as a reader sees it printed, spaces made single (a tie `~` is a space)."""
    text = LatexNodes2Text().latex_to_text(latex)
    return " ".join(text.replace("\xa0", " ").split())


def listed(names: list[str]) -> str:
    """Names as the standard styles join them: "A and B", "A, B, and C"."""
    if len(names) < 3:
        return " and ".join(names)
    return ", ".join(names[:-1]) + ", and " + names[-1]


def bibliography(bib_file, style: str) -> dict[str, list[str]]:
    """Each entry's blocks (names, title, venue and year) as `bibtex` writes them with
    `style`, read as plain text."""
    folder = bib_file.parent
    (folder / "cite.aux").write_text(f"\\citation{{*}}\n\\bibstyle{{{style}}}\n\\bibdata{{refs}}\n")
    run = subprocess.run(
        ["bibtex", "-terse", "cite"], cwd=folder, capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stdout + run.stderr  # warnings count too: 1 is a warning
    bbl = (folder / "cite.bbl").read_text()
    entries = {}
    for item in re.split(r"\\bibitem\{", bbl)[1:]:
        key, _, body = item.partition("}")
        body = body.split("\\end{thebibliography}")[0]
        entries[key] = [plain(block).rstrip(".") for block in body.split("\\newblock")]
    return entries


def expected_entries(papers) -> list[tuple[str, str, list[Name]]]:
    groups = [NAMES[:4], NAMES[4:]]
    return [
        (paper.citation_key, title, names)
        for paper, title, names in zip(papers, TITLES, groups, strict=True)
    ]


@pytest.mark.needs("bibtex")
@pytest.mark.parametrize("style", ["plain", "abbrv"])
def test_bibtex_with_a_standard_style_prints_every_name_title_and_venue_as_stored(
    bib_file, papers, style
):
    entries = bibliography(bib_file, style)
    mismatches = []
    for key, title, names in expected_entries(papers):
        printed_names, printed_title, printed_venue = entries[key]
        form = "whole" if style == "plain" else "abbreviated"
        expected_names = listed([getattr(name, form) for name in names])
        if printed_names != expected_names:
            mismatches.append(f"{key} names: {printed_names!r} != {expected_names!r}")
        if printed_title != title:
            mismatches.append(f"{key} title: {printed_title!r} != {title!r}")
        if printed_venue != f"In {VENUE}, 2024":
            mismatches.append(f"{key} venue: {printed_venue!r} != {VENUE!r}")
    assert mismatches == []


def pandoc(*arguments: str, stdin: str = "") -> str:
    run = subprocess.run(
        ["pandoc", *arguments], input=stdin, capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stderr
    assert "[WARNING]" not in run.stderr, run.stderr
    return run.stdout


def csl_name(name: dict[str, str]) -> tuple[str, str]:
    particle = name.get("non-dropping-particle") or name.get("dropping-particle") or ""
    return name.get("given", ""), f"{particle} {name.get('family', '')}".strip()


BIBLATEXML = "{http://biblatex-biber.sourceforge.net/biblatexml}"


def read_by_biber(bib_file: Path) -> list[ElementTree.Element]:
    """The entries of `bib_file` as biber reads them (its tool mode, writing BibLaTeXML beside
    it), without a warning."""
    output = bib_file.with_suffix(".bltxml")
    run = subprocess.run(
        ["biber", "--tool", "--output-format=biblatexml", f"--output-file={output}", bib_file],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "WARN" not in run.stdout, run.stdout
    return list(ElementTree.parse(output).getroot())


def biber_read(bib_file) -> dict[str, tuple[list[tuple[str, str]], str, str]]:
    """Each entry's names (given, family with its particle), title and venue as biber reads
    them: names in Unicode, other fields as LaTeX."""

    def part(name: ElementTree.Element, kind: str) -> str:
        element = name.find(f"{BIBLATEXML}namepart[@type='{kind}']")
        if element is None:
            return ""
        words = element.findall(f"{BIBLATEXML}namepart")
        return " ".join(word.text or "" for word in words) if words else element.text or ""

    read = {}
    for entry in read_by_biber(bib_file):
        names = [
            (part(name, "given"), f"{part(name, 'prefix')} {part(name, 'family')}".strip())
            for name in entry.iter(f"{BIBLATEXML}name")
        ]
        title, venue = (
            plain(entry.findtext(f"{BIBLATEXML}{field}", "")) for field in ("title", "booktitle")
        )
        read[entry.get("id", "")] = (names, title, venue)
    return read


@pytest.mark.needs("pandoc", "biber")
def test_pandoc_biber_and_the_portals_own_import_read_every_name_title_and_venue_as_stored(
    bib_file, papers
):
    """The import reads with bibtexparser: a name written family first comes back in order."""
    biber = biber_read(bib_file)
    items = {
        item["id"]: item
        for item in json.loads(pandoc("-f", "bibtex", "-t", "csljson", str(bib_file)))
    }
    imported = {entry.key: entry for entry in parse_bibtex(bib_file.read_text()).entries}
    mismatches = []
    for key, title, names in expected_entries(papers):
        item = items[key]
        read = [csl_name(name) for name in item["author"]]
        stored = [(name.given, name.family) for name in names]
        if read != stored:
            mismatches.append(f"{key} names: {read!r} != {stored!r}")
        if item["title"] != title:
            mismatches.append(f"{key} title: {item['title']!r} != {title!r}")
        if item["container-title"] != VENUE:
            mismatches.append(f"{key} venue: {item['container-title']!r} != {VENUE!r}")
        if biber[key] != (stored, title, VENUE):
            mismatches.append(f"{key} biber: {biber[key]!r}")
        entry = imported[key]
        if (entry.authors, entry.title, entry.venue) != (
            tuple(name.stored for name in names),
            title,
            VENUE,
        ):
            mismatches.append(f"{key} imported: {entry!r}")
    assert mismatches == []


@pytest.mark.needs("pandoc")
def test_pandoc_citeproc_prints_the_venue_and_names_as_stored(bib_file, papers):
    """In its default style (Chicago author-date), which names the first author family first."""
    document = "\n\n".join(f"@{paper.citation_key}" for paper in papers)
    printed = pandoc(
        "--citeproc", "--bibliography", str(bib_file), "-f", "markdown", "-t", "plain",
        "--wrap=none", stdin=document,
    )  # fmt: skip
    printed = " ".join(printed.replace("\xa0", " ").split())
    for text in [
        VENUE,
        *TITLES,
        "Núñez, José",
        "Émile Ñúñez",
        "Jean-Pierre Lévy-Bruhl",
        "Ortíz, José Ángel",
        "Ángel de la Fuente",
    ]:
        assert text in printed


@pytest.mark.needs("pandoc")
def test_pandoc_reads_back_every_latin_letter_and_sign_as_written(tmp_path):
    """One entry per character, each inside a title as the export writes it."""
    path = tmp_path / "characters.bib"
    path.write_text(
        "".join(
            f"@misc{{c{number}, title = {{{{x{exports.latex(character)}x}}}}}}\n"
            for number, character in enumerate(CHARACTERS)
        )
    )
    read = {
        item["id"]: item["title"]
        for item in json.loads(pandoc("-f", "bibtex", "-t", "csljson", str(path)))
    }
    lost = [
        character
        for number, character in enumerate(CHARACTERS)
        if unicodedata.normalize("NFC", read[f"c{number}"]) != f"x{character}x"
    ]
    assert lost == []
