""".ci/run's PostgreSQL run passes `--browser-matrix=desktop-light`: each browser test runs
once, at the desktop size in the light scheme, instead of at every size and in every scheme
(the README's test command, on SQLite, runs them all). What it leaves out must be only repeats:
no browser test may go unrun on PostgreSQL."""

import re

from tests.collecting import collected


def collected_browser_tests(*options: str) -> list[str]:
    return collected(*options, "tests/browser")


def test_the_desktop_light_run_keeps_every_browser_test_and_drops_only_size_and_scheme_repeats():
    whole = collected_browser_tests()
    kept = collected_browser_tests("--browser-matrix=desktop-light")

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
