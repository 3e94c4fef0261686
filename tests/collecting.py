"""The tests pytest collects, for the tests that check the suite itself: the accessibility
statement against the browser tests, the PostgreSQL run's browser matrix."""

import subprocess
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]


def collected(*arguments: str) -> list[str]:
    """The ids of the tests `pytest --collect-only *arguments` collects, as
    "module::test[parameters]"."""
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"]
        + list(arguments),
        cwd=PROJECT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return [line for line in result.stdout.splitlines() if "::" in line]
