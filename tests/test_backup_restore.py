"""`manage.py backup`, then `restore` into an empty database and media folder, reproduces every
row of every table and every file: on SQLite, and on PostgreSQL when DATABASE_URL names one.

The site has a past (tests/backup_scenario.py): history, drafts, a deleted and a recovered
publication, photos. Each command runs as an operator runs it, in its own process.
"""

import os
import sqlite3
import tarfile
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.live_site import manage, site_environment

POSTGRES_URL = os.environ.get("DATABASE_URL", "")
ON_POSTGRES = POSTGRES_URL.startswith(("postgres://", "postgresql://"))


@pytest.fixture
def database_urls(tmp_path):
    """A source and a target database, both empty: SQLite files, or PostgreSQL databases on the
    server the suite runs against."""
    if not ON_POSTGRES:
        yield {side: f"sqlite:///{tmp_path / side}.sqlite3" for side in ("source", "target")}
        return
    import psycopg

    names = {side: f"lab_backup_{side}" for side in ("source", "target")}
    with psycopg.connect(POSTGRES_URL, autocommit=True) as server:
        for name in names.values():
            server.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
            server.execute(f"CREATE DATABASE {name}")
    yield {
        side: urlunsplit(urlsplit(POSTGRES_URL)._replace(path=f"/{name}"))
        for side, name in names.items()
    }
    with psycopg.connect(POSTGRES_URL, autocommit=True) as server:
        for name in names.values():
            server.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def every_row(url: str) -> dict[str, list[str]]:
    """Every table's rows, each as text, sorted: what the comparison sees."""
    if url.startswith("sqlite:"):
        database = sqlite3.connect(urlsplit(url).path)
        tables = [
            row[0]
            for row in database.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        rows = {name: database.execute(f'SELECT * FROM "{name}"').fetchall() for name in tables}
        database.close()
    else:
        import psycopg

        with psycopg.connect(url) as database:
            tables = [
                row[0]
                for row in database.execute(
                    "SELECT table_name FROM information_schema.tables "
                    "WHERE table_schema = 'public' AND table_type = 'BASE TABLE'"
                )
            ]
            rows = {name: database.execute(f'SELECT * FROM "{name}"').fetchall() for name in tables}
    return {name: sorted(repr(row) for row in table) for name, table in rows.items()}


def every_file(folder: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(folder)): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def test_backup_then_restore_into_an_empty_database_reproduces_every_row_and_file(
    tmp_path, database_urls
):
    source = site_environment(tmp_path / "source", DATABASE_URL=database_urls["source"], DEBUG="1")
    target = site_environment(tmp_path / "target", DATABASE_URL=database_urls["target"], DEBUG="1")
    manage(source, "migrate", "--noinput")
    manage(source, "shell", "-c", "from tests.backup_scenario import build; build()")
    archive = tmp_path / "site.tar.gz"

    backed_up = manage(source, "backup", "--output", str(archive))
    restored = manage(target, "restore", str(archive))

    assert "every count and file checked" in restored
    before, after = every_row(database_urls["source"]), every_row(database_urls["target"])
    assert sorted(after) == sorted(before)
    for table, rows in before.items():
        assert after[table] == rows, table
    # The past came along: an edit, a draft, a deletion, a deletion and its recovery.
    assert len(after["publications_historicalpublication"]) == 5
    photos = every_file(Path(source["MEDIA_ROOT"]))
    assert len(photos) == 6  # two photos, each with two thumbnails
    assert every_file(Path(target["MEDIA_ROOT"])) == photos
    assert "6 media files" in backed_up
    # The restored site is current and takes new rows (PostgreSQL's sequences came along).
    manage(target, "migrate", "--check")
    manage(
        target,
        "shell",
        "-c",
        "from tests.factories import make_publication, make_news; make_publication(); make_news()",
    )
    # A second restore would mix two sites: it is refused.
    with pytest.raises(RuntimeError, match="a backup is restored into an empty database"):
        manage(target, "restore", str(archive))


def test_restore_refuses_a_file_that_is_not_a_backup(tmp_path, database_urls):
    target = site_environment(tmp_path / "target", DATABASE_URL=database_urls["target"], DEBUG="1")
    archive = tmp_path / "not-a-backup.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(__file__, arcname="something.py")
    with pytest.raises(RuntimeError, match="is not a backup made by `manage.py backup`"):
        manage(target, "restore", str(archive))
