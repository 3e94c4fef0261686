""".ci/run's PostgreSQL run passes `--browser-matrix=desktop-light`: each browser test runs
once, at the desktop size in the light scheme, instead of at every size and in every scheme
(the README's test command, on SQLite, runs them all). What it leaves out must be only repeats:
no browser test may go unrun on PostgreSQL."""

import re
import subprocess
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]


def collected(*options: str) -> list[str]:
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"]
        + [*options, "tests/browser"],
        cwd=PROJECT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return [line for line in result.stdout.splitlines() if "::" in line]


def test_the_desktop_light_run_keeps_every_browser_test_and_drops_only_size_and_scheme_repeats():
    whole = collected()
    kept = collected("--browser-matrix=desktop-light")

    def function(test_id: str) -> str:
        return test_id.split("[", 1)[0]

    assert {function(test_id) for test_id in kept} == {function(test_id) for test_id in whole}
    assert set(kept) < set(whole)
    # What is dropped is each test's run at the phone size or in the dark scheme.
    dropped = set(whole) - set(kept)
    assert dropped
    assert all(re.search(r"\[.*\b(phone|dark)\b.*\]", test_id) for test_id in dropped)
    # What is kept is the desktop run, in light, of each test that runs at both sizes.
    at_both_sizes = {function(t) for t in whole if "desktop" in t} & {
        function(t) for t in whole if "phone" in t
    }
    assert at_both_sizes
    for name in at_both_sizes:
        assert any(function(t) == name and "desktop" in t for t in kept), name
