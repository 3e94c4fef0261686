"""Backup and restore of the whole site, database and uploaded media, in one archive.

The database is copied as the database itself keeps it, not re-created row by row: SQLite's
online backup API (a consistent copy while the site runs), or `pg_dump` in PostgreSQL's custom
format, taken in the same snapshot the manifest's row counts are read in. Restoring such a copy
sends no signal and runs no save(), so nothing differs from what was backed up. Django's
`dumpdata`/`loaddata` could not do that here: with natural keys it fails as soon as a history
row points at a deleted publication, and loading news items sets their people and
publications, which adds history rows dated at the restore.

The archive (a .tar.gz) holds:
- manifest.json: the format, when and from what it was made, the applied migrations, the
  number of rows of every table, and each media file's size and SHA-256;
- database.sqlite3 or database.pgdump;
- media/<name> for every file of the default storage (MEDIA_ROOT, or MEDIA_STORAGE's backend).

A restore goes into an empty database (no tables) and media storage, and is checked against
the manifest: every table's row count and every file's checksum, or it says what differs.
"""

import datetime
import hashlib
import io
import json
import os
import shutil
import sqlite3
import subprocess
import tarfile
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import django
from django.core.files.base import ContentFile
from django.core.files.storage import Storage, default_storage
from django.db import connection
from django.db.migrations.recorder import MigrationRecorder

from directory.site_cache import bump_stamp

FORMAT = 1
MANIFEST = "manifest.json"
DATABASE_FILES = {"sqlite": "database.sqlite3", "postgresql": "database.pgdump"}
MEDIA_PREFIX = "media/"


class BackupError(Exception):
    """A backup or restore that cannot go on, with what to do about it."""


@dataclass(frozen=True)
class Manifest:
    data: dict

    @property
    def tables(self) -> dict[str, int]:
        return self.data["tables"]

    @property
    def media(self) -> dict[str, dict]:
        return self.data["media"]

    def summary(self) -> str:
        rows = sum(self.tables.values())
        size = sum(item["bytes"] for item in self.media.values())
        return (
            f"{len(self.tables)} tables, {rows:,} rows; {len(self.media)} media files, "
            f"{size:,} bytes ({self.data['database']['vendor']}, made {self.data['created']})"
        )


# Backing up ------------------------------------------------------------------------------------


def create_backup(*, output: Path, storage: Storage = default_storage) -> Manifest:
    vendor = _vendor()
    with tempfile.TemporaryDirectory() as folder:
        database_file = Path(folder) / DATABASE_FILES[vendor]
        if vendor == "sqlite":
            tables = _sqlite_backup(database_file)
        else:
            tables = _postgresql_backup(database_file)
        media = {name: _describe(storage, name) for name in _media_names(storage)}
        manifest = Manifest(
            {
                "format": FORMAT,
                "created": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
                "django": django.get_version(),
                "database": {"vendor": vendor, "file": database_file.name},
                "migrations": _applied_migrations(),
                "tables": tables,
                "media": media,
            }
        )
        output.parent.mkdir(parents=True, exist_ok=True)
        partial = output.with_name(output.name + ".partial")
        with tarfile.open(partial, "w:gz") as archive:
            _add_bytes(archive, MANIFEST, json.dumps(manifest.data, indent=2).encode())
            archive.add(database_file, arcname=database_file.name)
            for name in media:
                with storage.open(name, "rb") as file:
                    _add_bytes(archive, MEDIA_PREFIX + name, file.read())
        partial.replace(output)  # never a half-written archive under the final name
    return manifest


def _vendor() -> str:
    if connection.vendor not in DATABASE_FILES:
        raise BackupError(f"Backups support SQLite and PostgreSQL, not {connection.vendor}.")
    return connection.vendor


def _sqlite_backup(copy: Path) -> dict[str, int]:
    """SQLite's online backup: a consistent copy even while the site writes."""
    connection.ensure_connection()
    target = sqlite3.connect(copy)
    try:
        connection.connection.backup(target)
    finally:
        target.close()
    return _sqlite_counts(copy)


SQLITE_TABLES = (
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
)
POSTGRESQL_TABLES = (
    "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() "
    "AND table_type = 'BASE TABLE' ORDER BY table_name"
)


def _row_counts(database, tables_query: str) -> dict[str, int]:
    """Every table's row count, through a DB-API connection or cursor of either database."""
    names = [row[0] for row in database.execute(tables_query).fetchall()]
    return {
        name: database.execute(f'SELECT COUNT(*) FROM "{name}"').fetchone()[0] for name in names
    }


def _sqlite_counts(path: Path) -> dict[str, int]:
    database = sqlite3.connect(path)
    try:
        return _row_counts(database, SQLITE_TABLES)
    finally:
        database.close()


def _postgresql_backup(dump: Path) -> dict[str, int]:
    """pg_dump in the snapshot the row counts are read in, so they describe the same data."""
    import psycopg

    with psycopg.connect(_conninfo()) as database:
        database.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
        with database.transaction():
            snapshot = _first(database.execute("SELECT pg_export_snapshot()").fetchone())
            tables = _row_counts(database, POSTGRESQL_TABLES)
            _run(
                [_pg_tool("pg_dump"), "--format=custom", "--no-owner", "--no-privileges",
                 f"--snapshot={snapshot}", f"--file={dump}"],
            )  # fmt: skip
    return tables


def _applied_migrations() -> dict[str, list[str]]:
    applied: dict[str, list[str]] = {}
    for app, name in sorted(MigrationRecorder(connection).applied_migrations()):
        applied.setdefault(app, []).append(name)
    return applied


def _media_names(storage: Storage, folder: str = "") -> Iterator[str]:
    try:
        folders, files = storage.listdir(folder)
    except FileNotFoundError:
        return
    for name in sorted(files):
        yield f"{folder}{name}"
    for name in sorted(folders):
        yield from _media_names(storage, f"{folder}{name}/")


def _describe(storage: Storage, name: str) -> dict:
    with storage.open(name, "rb") as file:
        content = file.read()
    return {"bytes": len(content), "sha256": hashlib.sha256(content).hexdigest()}


def _add_bytes(archive: tarfile.TarFile, name: str, content: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(content)
    info.mtime = int(datetime.datetime.now().timestamp())
    archive.addfile(info, io.BytesIO(content))


# Restoring -------------------------------------------------------------------------------------


def read_manifest(archive_path: Path) -> Manifest:
    try:
        with tarfile.open(archive_path, "r:*") as archive:
            member = archive.extractfile(MANIFEST)
            if member is None:
                raise KeyError(MANIFEST)
            data = json.loads(member.read())
    except (OSError, tarfile.TarError, KeyError, ValueError) as error:
        raise BackupError(
            f"{archive_path} is not a backup made by `manage.py backup`: {error}"
        ) from None
    if data.get("format") != FORMAT:
        raise BackupError(
            f"{archive_path} has backup format {data.get('format')}; this site reads {FORMAT}."
        )
    return Manifest(data)


def restore_backup(*, archive_path: Path, storage: Storage = default_storage) -> Manifest:
    manifest = read_manifest(archive_path)
    vendor = _vendor()
    if manifest.data["database"]["vendor"] != vendor:
        raise BackupError(
            f"This backup is of a {manifest.data['database']['vendor']} database and the site "
            f"uses {vendor}: restore it into the same kind of database."
        )
    existing = connection.introspection.table_names()
    if existing:
        raise BackupError(
            f"The database already has {len(existing)} tables: a backup is restored into an "
            "empty database. Create a new one (for SQLite, point DATABASE_URL at a new file) "
            "and run restore again."
        )
    clashes = [name for name in manifest.media if storage.exists(name)]
    if clashes:
        raise BackupError(
            f"The media storage already has {len(clashes)} of the backup's files "
            f"(e.g. {clashes[0]}): restore into an empty MEDIA_ROOT."
        )
    with tempfile.TemporaryDirectory() as folder, tarfile.open(archive_path, "r:*") as archive:
        database_file = Path(folder) / manifest.data["database"]["file"]
        _extract(archive, database_file.name, database_file)
        if vendor == "sqlite":
            _sqlite_restore(database_file)
        else:
            _postgresql_restore(database_file)
        for name in manifest.media:
            member = archive.extractfile(MEDIA_PREFIX + name)
            if member is None:
                raise BackupError(f"The archive lacks the media file {name}.")
            stored = storage.save(name, ContentFile(member.read()))
            if stored != name:
                raise BackupError(f"The storage stored {name} as {stored}.")
    differences = compare_with_manifest(manifest, storage=storage)
    if differences:
        raise BackupError("The restored site differs from the backup: " + "; ".join(differences))
    # Rows written beneath the models' signals: no page cached before may be served after.
    bump_stamp()
    return manifest


def _extract(archive: tarfile.TarFile, name: str, target: Path) -> None:
    member = archive.extractfile(name)
    if member is None:
        raise BackupError(f"The archive lacks {name}.")
    with open(target, "wb") as file:
        shutil.copyfileobj(member, file)


def _sqlite_restore(copy: Path) -> None:
    """The copy written over the (empty) database through the backup API, page by page, so
    the open connection and the WAL mode stay valid."""
    connection.close()
    connection.ensure_connection()
    source = sqlite3.connect(copy)
    try:
        source.backup(connection.connection)
    finally:
        source.close()
    connection.close()


def _postgresql_restore(dump: Path) -> None:
    connection.close()
    _run(
        [_pg_tool("pg_restore"), "--no-owner", "--no-privileges", "--exit-on-error",
         "--single-transaction", f"--dbname={_psycopg_parameters()['dbname']}", str(dump)],
    )  # fmt: skip


def compare_with_manifest(manifest: Manifest, *, storage: Storage = default_storage) -> list[str]:
    """What differs between the site now and the manifest: row counts, media files."""
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            counts = _row_counts(cursor, SQLITE_TABLES)
    else:
        import psycopg

        with psycopg.connect(_conninfo()) as database:
            counts = _row_counts(database, POSTGRESQL_TABLES)
    differences = [
        f"table {name} has {counts.get(name)} rows, the backup {expected}"
        for name, expected in manifest.tables.items()
        if counts.get(name) != expected
    ]
    differences += [
        f"table {name} is not in the backup" for name in counts if name not in manifest.tables
    ]
    for name, expected in manifest.media.items():
        if not storage.exists(name) or _describe(storage, name) != expected:
            differences.append(f"media file {name} differs")
    return differences


# PostgreSQL's tools ----------------------------------------------------------------------------


def _psycopg_parameters() -> dict[str, str]:
    settings = connection.settings_dict
    parameters = {
        "dbname": settings["NAME"],
        "user": settings.get("USER") or "",
        "password": settings.get("PASSWORD") or "",
        "host": settings.get("HOST") or "",
        "port": str(settings.get("PORT") or ""),
    }
    return {key: value for key, value in parameters.items() if value}


def _conninfo() -> str:
    from psycopg.conninfo import make_conninfo

    return make_conninfo(**_psycopg_parameters())


def _first(row) -> str:
    return row[0]


def _pg_environment() -> dict[str, str]:
    names = {
        "dbname": "PGDATABASE",
        "user": "PGUSER",
        "password": "PGPASSWORD",
        "host": "PGHOST",
        "port": "PGPORT",
    }
    return {**os.environ, **{names[key]: value for key, value in _psycopg_parameters().items()}}


def _pg_tool(name: str) -> str:
    """PG_BIN_DIR's tool, else the one on PATH, else the newest Debian installs."""
    if folder := os.environ.get("PG_BIN_DIR"):
        return str(Path(folder) / name)
    if found := shutil.which(name):
        return found
    installed = sorted(
        Path("/usr/lib/postgresql").glob(f"*/bin/{name}"), key=lambda path: int(path.parts[-3])
    )
    if installed:
        return str(installed[-1])
    raise BackupError(
        f"{name} is not installed: install PostgreSQL's client tools or set PG_BIN_DIR."
    )


def _run(command: list[str]) -> None:
    result = subprocess.run(command, env=_pg_environment(), capture_output=True, text=True)
    if result.returncode != 0:
        raise BackupError(f"{Path(command[0]).name} failed: {result.stderr.strip()[-2000:]}")
