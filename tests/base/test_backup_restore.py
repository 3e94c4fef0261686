"""`manage.py backup`, then `restore` into an empty database and media folder, reproduces every
row of every table and every file: on SQLite, and on PostgreSQL when DATABASE_URL names one.

The site has a past (tests/backup_scenario.py): history, drafts, a deleted and a recovered
publication, photos. Each command runs as an operator runs it, in its own process.

A restore trusts nothing in its archive: altered names, damaged or truncated files and missing
media are each refused in one line before the site is touched, and the site can be restored
after (the tests from `small_backup` on).
"""

import io
import json
import os
import sqlite3
import subprocess
import sys
import tarfile
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.live_site import PROJECT, manage, migrated, site_environment

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
    migrated(source)
    manage(source, "shell", "-c", "from tests.backup_scenario import build; build()")
    archive = tmp_path / "site.tar.gz"

    backed_up = manage(source, "backup", "--output", str(archive))
    restored = manage(target, "restore", str(archive))

    assert "every count and file checked" in restored
    before, after = every_row(database_urls["source"]), every_row(database_urls["target"])
    assert sorted(after) == sorted(before)
    for table, rows in before.items():
        assert after[table] == rows, table
    # The past came along: each seeded paper's first version (seed records one), then an edit,
    # a draft, a deletion, a deletion and its recovery.
    seeded = len(after["publications_publication"]) + 1  # one was deleted for good
    assert len(after["publications_historicalpublication"]) == seeded + 5
    photos = every_file(Path(source["MEDIA_ROOT"]))
    # Two photos, each with two thumbnails and 18 renditions (people/photos.py).
    assert len(photos) == 2 * (3 + 18)
    assert every_file(Path(target["MEDIA_ROOT"])) == photos
    assert "42 media files" in backed_up
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


# A restore that trusts nothing in its archive ---------------------------------------------------


@pytest.fixture(scope="module")
def small_backup(tmp_path_factory) -> Path:
    """A migrated SQLite site with one uploaded file, backed up once for the tests below, which
    each alter a copy. (These run on SQLite whatever DATABASE_URL says: what they test happens
    before any database is written.)"""
    folder = tmp_path_factory.mktemp("small-source")
    source = site_environment(folder, DEBUG="1")
    migrated(source)
    photo = Path(source["MEDIA_ROOT"]) / "people" / "portrait.jpg"
    photo.parent.mkdir(parents=True)
    photo.write_bytes(b"a portrait" * 100)
    archive = folder / "site.tar.gz"
    manage(source, "backup", "--output", str(archive))
    return archive


def members(archive: Path) -> dict[str, bytes]:
    with tarfile.open(archive) as tar:
        return {
            member.name: tar.extractfile(member).read()  # type: ignore[union-attr]
            for member in tar.getmembers()
        }


def altered(
    archive: Path,
    output: Path,
    *,
    manifest: Callable[[dict], None] = lambda data: None,
    change: Callable[[dict[str, bytes]], None] = lambda files: None,
) -> Path:
    """A copy of `archive` whose manifest and members the callables changed in place."""
    files = members(archive)
    data = json.loads(files["manifest.json"])
    manifest(data)
    files["manifest.json"] = json.dumps(data).encode()
    change(files)
    with tarfile.open(output, "w:gz") as tar:
        for name, content in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(content)
            tar.addfile(info, io.BytesIO(content))
    return output


def refusal(environment: dict[str, str], archive: Path) -> str:
    """restore's answer when it refuses: one line, no traceback."""
    result = subprocess.run(
        [sys.executable, "manage.py", "restore", str(archive)],
        cwd=PROJECT,
        env=environment,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    return result.stderr


@pytest.fixture
def target(tmp_path) -> dict[str, str]:
    (tmp_path / "target").mkdir()
    return site_environment(tmp_path / "target", DEBUG="1")


def untouched(environment: dict[str, str]) -> bool:
    """The site's database has no table and its media folder no file, as before the restore."""
    database = Path(urlsplit(environment["DATABASE_URL"]).path)
    media = Path(environment["MEDIA_ROOT"])
    tables = every_row(environment["DATABASE_URL"]) if database.exists() else {}
    leftovers = list(database.parent.glob("*.restoring*"))
    return not tables and not every_file(media) and not leftovers


def test_restore_refuses_a_database_member_the_manifest_places_at_an_absolute_path(
    tmp_path, small_backup, target
):
    outside = tmp_path / "outside" / "database.sqlite3"
    outside.parent.mkdir()

    def absolute(data):
        data["database"]["file"] = str(outside)

    def also_there(files):
        files[str(outside).lstrip("/")] = files["database.sqlite3"]

    archive = altered(small_backup, tmp_path / "a.tar.gz", manifest=absolute, change=also_there)
    assert "not one `backup` writes" in refusal(target, archive)
    assert not outside.exists()
    assert untouched(target)


def test_restore_refuses_manifest_names_and_members_that_climb_out_of_its_folder(
    tmp_path, small_backup, target
):
    escaped = tmp_path / "escaped.txt"

    def climbing_database(data):
        data["database"]["file"] = "../database.sqlite3"

    archive = altered(small_backup, tmp_path / "a.tar.gz", manifest=climbing_database)
    assert "not one `backup` writes" in refusal(target, archive)

    def climbing_media(data):
        data["media"]["../../escaped.txt"] = data["media"].pop("people/portrait.jpg")

    def moved(files):
        files["media/../../escaped.txt"] = files.pop("media/people/portrait.jpg")

    archive = altered(small_backup, tmp_path / "b.tar.gz", manifest=climbing_media, change=moved)
    assert "outside the media folder" in refusal(target, archive)

    def climbing_member(files):
        files["../" * 20 + str(escaped).lstrip("/")] = b"written outside"

    archive = altered(small_backup, tmp_path / "c.tar.gz", change=climbing_member)
    assert "would be written outside the folder it is unpacked in" in refusal(target, archive)
    assert not escaped.exists()
    assert untouched(target)


@pytest.mark.parametrize("with_checksum", [True, False], ids=["checksum", "older archive"])
def test_restore_refuses_a_damaged_database_file_and_leaves_the_site_as_it_was(
    tmp_path, small_backup, target, with_checksum
):
    def no_checksum(data):
        if not with_checksum:
            del data["database"]["sha256"]

    def damaged(files):
        database = bytearray(files["database.sqlite3"])
        database[4096 : 4096 * 8] = b"\xff" * (4096 * 7)  # pages 2 to 8 overwritten
        files["database.sqlite3"] = bytes(database)

    archive = altered(small_backup, tmp_path / "a.tar.gz", manifest=no_checksum, change=damaged)
    answer = refusal(target, archive)
    if with_checksum:
        assert "does not match its checksum" in answer
    else:
        assert "The archive's database is damaged (SQLite's integrity check" in answer
    assert untouched(target)


def test_a_backup_missing_a_media_file_is_refused_and_the_site_can_be_restored_after(
    tmp_path, small_backup, target
):
    def without_photo(files):
        del files["media/people/portrait.jpg"]

    archive = altered(small_backup, tmp_path / "a.tar.gz", change=without_photo)
    assert "The archive lacks the media file people/portrait.jpg" in refusal(target, archive)
    assert untouched(target)

    restored = manage(target, "restore", str(small_backup))
    assert "every count and file checked" in restored
    photo = Path(target["MEDIA_ROOT"]) / "people" / "portrait.jpg"
    assert photo.read_bytes() == b"a portrait" * 100


def test_a_media_file_that_differs_from_its_checksum_is_refused(tmp_path, small_backup, target):
    def other_photo(files):
        files["media/people/portrait.jpg"] = b"another portrait" * 100

    archive = altered(small_backup, tmp_path / "a.tar.gz", change=other_photo)
    assert "people/portrait.jpg does not match its checksum" in refusal(target, archive)
    assert untouched(target)


def test_a_truncated_archive_is_refused_in_one_line(tmp_path, small_backup, target):
    archive = tmp_path / "truncated.tar.gz"
    content = small_backup.read_bytes()
    archive.write_bytes(content[: len(content) * 2 // 3])
    assert "it is truncated or damaged" in refusal(target, archive)
    assert untouched(target)


def test_a_file_that_is_no_archive_at_all_is_refused_in_one_line(tmp_path, target):
    archive = tmp_path / "notes.txt"
    archive.write_text("Not a backup.\n")
    answer = refusal(target, archive)
    assert "is not a backup made by `manage.py backup`" in answer
    assert "choose the .tar.gz file that `backup` wrote" in answer


def test_a_manifest_without_its_lists_is_refused_in_one_line(tmp_path, small_backup, target):
    def no_tables(data):
        del data["tables"]

    archive = altered(small_backup, tmp_path / "a.tar.gz", manifest=no_tables)
    assert "lacks 'tables': it was altered or damaged" in refusal(target, archive)


def test_restore_into_a_database_migrate_has_just_made_is_accepted(tmp_path, database_urls):
    """The usual habit: `migrate` first, then `restore`."""
    source = site_environment(tmp_path / "source", DATABASE_URL=database_urls["source"], DEBUG="1")
    target = site_environment(tmp_path / "target", DATABASE_URL=database_urls["target"], DEBUG="1")
    migrated(source)
    manage(
        source, "shell", "-c", "from tests.factories import make_publication; make_publication()"
    )
    archive = tmp_path / "site.tar.gz"
    manage(source, "backup", "--output", str(archive))
    migrated(target)

    restored = manage(target, "restore", str(archive))

    assert "every count and file checked" in restored
    assert every_row(database_urls["target"]) == every_row(database_urls["source"])
    # Once it holds a site, a second restore is refused.
    with pytest.raises(RuntimeError, match="a backup is restored into an empty database"):
        manage(target, "restore", str(archive))


@pytest.mark.django_db
def test_media_files_restored_before_a_database_step_that_fails_are_deleted_again(
    tmp_path, small_backup, settings, monkeypatch
):
    """The database is replaced last; when that step fails, the media saved before it go, so
    the site is as it was and restore can run again. (In this process: the step is made to
    fail where a full disk or a stopped PostgreSQL would.)"""
    from base import backup

    def staged(manifest, database_file):
        return tmp_path / "staged.sqlite3"

    def disk_full(staged):
        raise OSError(28, "No space left on device")

    # The archive is a SQLite site's (small_backup) whatever database the tests run on; its
    # database step is replaced here anyway.
    monkeypatch.setattr(backup, "_vendor", lambda: "sqlite")
    monkeypatch.setattr(backup, "_stage_sqlite", staged)
    monkeypatch.setattr(backup, "_swap_in_sqlite", disk_full)
    with pytest.raises(backup.BackupError, match="No space left on device.*left as it was"):
        backup.restore_backup(archive_path=small_backup)
    assert not every_file(Path(settings.MEDIA_ROOT))
