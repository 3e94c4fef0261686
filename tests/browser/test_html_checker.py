"""Every page type's HTML, as the served site sends it, checked by the W3C's Nu HTML Checker
(vnu.jar, run with Java; `make vnu` fetches it): no error.

The pages are checked once, not once per colour scheme: dark mode is chosen by the stylesheet's
`prefers-color-scheme` media query alone, so light and dark pages are the same HTML. All pages
go to one `java` run, since the JVM takes seconds to start.
"""

import json
import subprocess
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from base.accessibility import NU, pages_checked_by
from tests.tools import vnu_jar_path

pytestmark = [
    pytest.mark.needs("java", "vnu"),
    pytest.mark.usefixtures("research_group", "lab_events"),
]

# The page types the accessibility statement lists for this check (/accessibility/).
PAGES = pages_checked_by(NU)


def fetch(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def nu_errors_at(site_url: str, paths: dict[str, str], folder: Path) -> list[str]:
    """nu_errors of the pages at `paths` (by name), each fetched (it must answer 200) and
    written into `folder` as <name>.html."""
    files = []
    for name, path in paths.items():
        status, body = fetch(site_url + path)
        assert status == 200, path
        files.append(folder / f"{name}.html")
        files[-1].write_bytes(body)
    return nu_errors(files)


def nu_errors(files: list[Path]) -> list[str]:
    """Each error the checker finds in these files, as "file line N: message"."""
    result = subprocess.run(
        ["java", "-jar", vnu_jar_path(), "--errors-only", "--format", "json", *map(str, files)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    messages = json.loads(result.stderr)["messages"]
    return [
        f"{Path(message.get('url', '?')).name} line {message.get('lastLine', '?')}: "
        f"{message['message']}"
        for message in messages
    ]


def test_every_page_type_is_valid_html(site_url, tmp_path):
    files = []
    for name, page in PAGES.items():
        status, body = fetch(site_url + page.path)
        assert status == page.status, page.path
        files.append(tmp_path / f"{name}.html")
        files[-1].write_bytes(body)
    assert nu_errors(files) == []
