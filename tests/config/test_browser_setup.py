"""Without Chromium the browser suite skips, and the run closes with one line saying what was
skipped and how to install it; in CI it fails (tests/tools.py)."""

import os
import re
import subprocess
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent.parent


def run_browser_suite_without_chromium(**environment) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if key != "CI"}
    env.update(CHROMIUM_PATH="/nonexistent/chromium", **environment)
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "tests/browser/test_keyboard.py",
            "-q",
            "-rs",
            "-p",
            "no:randomly",
        ],
        cwd=PROJECT,
        env=env,
        capture_output=True,
        text=True,
    )


def test_browser_tests_skip_with_install_advice_when_chromium_is_missing():
    result = run_browser_suite_without_chromium()
    assert result.returncode == 0, result.stdout
    skipped = re.search(r"(\d+) skipped", result.stdout.splitlines()[-1])
    assert skipped and int(skipped[1]) > 0, result.stdout  # every journey, none run
    assert (
        f"Skipped {skipped[1]} tests: Chromium not installed (tools from Debian). "
        "To run them too: apt-get install -y chromium"
    ) in result.stdout


def test_a_missing_browser_fails_the_run_in_ci():
    result = run_browser_suite_without_chromium(CI="true")
    assert result.returncode != 0
    assert "apt-get install -y chromium" in result.stdout
    assert "skipped" not in result.stdout.splitlines()[-1]
