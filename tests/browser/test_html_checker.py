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

from tests.browser.conftest import GROUP
from tests.tools import vnu_jar_path

pytestmark = [pytest.mark.needs("java", "vnu"), pytest.mark.usefixtures("research_group")]

PAGES = {
    "home": "/",
    "people": "/people/",
    "profile": "/people/hang-zhu/",
    "profile-with-advisors": "/people/zerui-wang/",
    "cv": "/people/hang-zhu/cv/",
    "publications": "/publications/",
    "publications-filtered": "/publications/?venue=NSDI&year=2024",
    "publications-by-words": "/publications/?q=cache&type=conference-paper",
    "publication": "/publications/causalmesh/",
    "news": "/news/",
    "news-item": "/news/jet-long-accepted-to-neurips-2026/",
    "groups": "/groups/",
    "group": GROUP,
    "areas": "/areas/",
    "area": "/areas/ml-systems-area/",
    "search": "/search/?q=zhang",
    "search-news": "/search/?q=jet",
    "search-empty": "/search/",
    "not-found": "/no-such-page/",
    "admin-login": "/admin/login/",
    "api-docs": "/api/docs",
}


def fetch(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


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
    for name, path in PAGES.items():
        status, body = fetch(site_url + path)
        assert status == (404 if name == "not-found" else 200), path
        files.append(tmp_path / f"{name}.html")
        files[-1].write_bytes(body)
    assert nu_errors(files) == []
