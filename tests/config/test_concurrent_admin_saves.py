"""Staff saving at the same time on SQLite: every save succeeds.

Before WAL, a busy timeout and IMMEDIATE write transactions (config/settings.py), 9 to 11 of
these 50 saves answered 500 "database is locked" (three runs; 14 to 19 with four workers). The
site runs under benchmarks/http.py's gunicorn server (two sync workers) on its own SQLite file,
on both CI runs since this is about SQLite, and five editors save people and publications
through the admin's forms over HTTP, all at once.
"""

import sqlite3

from tests.live_site import prepare_site, save_concurrently, served, site_environment

STAFF = [f"editor{number}" for number in range(1, 6)]


def test_fifty_concurrent_admin_saves_on_sqlite_all_succeed(tmp_path, collected_static):
    environment = site_environment(tmp_path, STATIC_ROOT=str(collected_static))
    prepare_site(environment, staff=STAFF, collect_static=False)
    with served(environment, tmp_path) as url:
        outcomes = save_concurrently(url, STAFF, saves=50)
    log = "\n".join(path.read_text()[-3000:] for path in tmp_path.glob("gunicorn-*.log"))
    assert outcomes == {"saved": 50}, log
    with sqlite3.connect(tmp_path / "site.sqlite3") as database:
        assert database.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        saved = (
            database.execute(
                "SELECT COUNT(*) FROM people_historicalperson WHERE history_type = '~'"
            ).fetchone()[0]
            + database.execute(
                "SELECT COUNT(*) FROM publications_historicalpublication WHERE history_type = '~'"
            ).fetchone()[0]
        )
    assert saved == 50  # each save was recorded once, in its own transaction
