""".ci/run's PostgreSQL run passes `--sqlite-sites=skip`: the tests whose site is a SQLite
database of their own whatever DATABASE_URL names are left out there, as the SQLite run has
them. What it leaves out must be only those: every test of the suite's database server (a
restore into it) still runs."""

import subprocess
import sys
from pathlib import Path

import pytest

from tests import live_site
from tests.conftest import SQLITE_SITES

PROJECT = Path(__file__).resolve().parents[2]


def collected(*options: str) -> set[str]:
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"]
        + [*options, *SQLITE_SITES],
        cwd=PROJECT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return {line for line in result.stdout.splitlines() if "::" in line}


def test_the_postgresql_run_leaves_out_only_the_tests_of_sqlite_sites_of_their_own():
    whole = collected()
    kept = collected("--sqlite-sites=skip")
    left_out = whole - kept
    assert kept < whole
    assert (
        "tests/config/test_concurrent_admin_saves.py::"
        + ("test_fifty_concurrent_admin_saves_on_sqlite_all_succeed")
        in left_out
    )
    assert {test_id for test_id in left_out if "test_restore_refuses_a_damaged_database" in test_id}
    # The backup and restore on the suite's own database server still run.
    assert {test_id.split("::")[1] for test_id in kept} == {
        "test_backup_then_restore_into_an_empty_database_reproduces_every_row_and_file",
        "test_restore_refuses_a_file_that_is_not_a_backup",
        "test_restore_into_a_database_migrate_has_just_made_is_accepted",
    }


def test_a_sqlite_site_made_on_a_run_that_leaves_them_out_names_the_list(tmp_path, monkeypatch):
    """A test missing from SQLITE_SITES would run on PostgreSQL too, migrating SQLite there:
    it fails, saying where to list it."""
    monkeypatch.setattr(live_site, "SQLITE_SITES_LEFT_OUT", True)
    with pytest.raises(RuntimeError, match="SQLITE_SITES"):
        live_site.migrated(live_site.site_environment(tmp_path))
    assert not (tmp_path / "site.sqlite3").exists()
