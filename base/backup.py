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

A restore goes into an empty database (no tables, or only what `migrate` writes) and media
storage. The whole archive is verified before anything is written (restore_backup says how), the
database is replaced in one step at the end, and the result is checked against the manifest:
every table's row count and every file's checksum. A refusal leaves the site as it was, so
restore can run again.
"""

import datetime
import functools
import hashlib
import io
import json
import os
import shutil
import sqlite3
import subprocess
import tarfile
import tempfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import django
from django.core.files.base import File
from django.core.files.storage import Storage, default_storage
from django.db import DatabaseError, connection
from django.db.migrations.recorder import MigrationRecorder

from base.site_cache import bump_stamp

FORMAT = 1
MANIFEST = "manifest.json"
DATABASE_FILES = {"sqlite": "database.sqlite3", "postgresql": "database.pgdump"}
MEDIA_PREFIX = "media/"


class BackupError(Exception):
    """A backup or restore that cannot go on, with what to do about it."""


@dataclass(frozen=True)
class Manifest:
    data: dict[str, Any]

    @property
    def tables(self) -> dict[str, int]:
        tables: dict[str, int] = self.data["tables"]
        return tables

    @property
    def media(self) -> dict[str, dict[str, Any]]:
        media: dict[str, dict[str, Any]] = self.data["media"]
        return media

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
                "database": {
                    "vendor": vendor,
                    "file": database_file.name,
                    "bytes": database_file.stat().st_size,
                    "sha256": _sha256(database_file),
                },
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


def _row_counts(database: Any, tables_query: str) -> dict[str, int]:
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


def _describe(storage: Storage, name: str) -> dict[str, Any]:
    with storage.open(name, "rb") as file:
        content = file.read()
    return {"bytes": len(content), "sha256": hashlib.sha256(content).hexdigest()}


def _add_bytes(archive: tarfile.TarFile, name: str, content: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(content)
    info.mtime = int(datetime.datetime.now().timestamp())
    archive.addfile(info, io.BytesIO(content))


# Restoring -------------------------------------------------------------------------------------

# What `migrate` writes into a new database: its own record, content types and permissions,
# and the groups and the lab's settings row its data migrations create. A database with rows
# in any other table holds a site already, and a restore would mix two sites.
WRITTEN_BY_MIGRATE = frozenset(
    {
        "django_migrations",
        "django_content_type",
        "auth_permission",
        "auth_group",
        "auth_group_permissions",
        "directory_lab",
    }
)
# What a damaged, truncated or foreign file raises while it is read as an archive.
UNREADABLE = (OSError, EOFError, zlib.error, tarfile.TarError, UnicodeDecodeError)


def read_manifest(archive_path: Path) -> Manifest:
    """The archive's manifest, checked: every name it gives stays inside the folder the
    archive is unpacked in."""
    try:
        with tarfile.open(archive_path, "r:*") as archive:
            member = archive.extractfile(MANIFEST)
            if member is None:
                raise KeyError(MANIFEST)
            data = json.loads(member.read())
    except (EOFError, zlib.error) as error:  # finding a member reads the archive to its end
        raise _unreadable(archive_path, error) from None
    except (*UNREADABLE, KeyError, ValueError) as error:
        raise BackupError(
            f"{archive_path} is not a backup made by `manage.py backup` ({_reason(error)}): "
            "choose the .tar.gz file that `backup` wrote."
        ) from None
    found = data.get("format") if isinstance(data, dict) else None
    if found != FORMAT:
        raise BackupError(
            f"{archive_path} has backup format {found}; this site reads {FORMAT}: "
            "restore it with the version of the site that made it."
        )
    return _checked(Manifest(data), archive_path)


def _checked(manifest: Manifest, archive_path: Path) -> Manifest:
    altered = "it was altered or damaged; restore from another backup."
    try:
        database = manifest.data["database"]
        vendor, name = database["vendor"], database["file"]
        well_formed = all(isinstance(rows, int) for rows in manifest.tables.values()) and all(
            isinstance(item["bytes"], int) and isinstance(item["sha256"], str)
            for item in manifest.media.values()
        )
    except (KeyError, TypeError, AttributeError) as error:
        missing = repr(error.args[0]) if isinstance(error, KeyError) else "its usual structure"
        raise BackupError(f"The manifest of {archive_path} lacks {missing}: {altered}") from None
    if not well_formed:
        raise BackupError(
            f"The manifest of {archive_path} has a malformed list of tables or media files: {altered}"
        )
    if vendor not in DATABASE_FILES or name != DATABASE_FILES[vendor]:
        raise BackupError(
            f"The manifest of {archive_path} names the database file {name!r}, not one "
            f"`backup` writes: {altered}"
        )
    for media_name in manifest.media:
        if not _stays_inside(media_name):
            raise BackupError(
                f"The manifest of {archive_path} names the media file {media_name!r}, which "
                f"would be written outside the media folder: {altered}"
            )
    return manifest


def _stays_inside(name: str) -> bool:
    """A relative name of plain parts: no absolute path, no `..`, no backslash or NUL."""
    return (
        "\\" not in name
        and "\x00" not in name
        and all(part not in ("", ".", "..") for part in name.split("/"))
    )


def _reason(error: BaseException) -> str:
    if isinstance(error, KeyError):
        return f"it has no {error.args[0]}" if error.args else "an entry is missing"
    return str(error).splitlines()[0] if str(error) else type(error).__name__


def restore_backup(*, archive_path: Path, storage: Storage = default_storage) -> Manifest:
    """Restore the archive, or refuse with the site left as it was.

    Nothing is written before the whole archive is verified: every member unpacked (tarfile's
    "data" filter refuses a name outside the folder), the database's checksum, its own
    integrity check (SQLite) or table of contents (PostgreSQL), SQLite's row counts, every
    media file's size and checksum. The media files are saved first and deleted again if the
    database then fails; the database comes last in one step: a new SQLite file swapped in
    with os.replace, or pg_restore in a single transaction.
    """
    manifest = read_manifest(archive_path)
    vendor = _vendor()
    if manifest.data["database"]["vendor"] != vendor:
        raise BackupError(
            f"This backup is of a {manifest.data['database']['vendor']} database and the site "
            f"uses {vendor}: restore it into the same kind of database."
        )
    _check_database_is_new()
    clashes = [name for name in manifest.media if storage.exists(name)]
    if clashes:
        raise BackupError(
            f"The media storage already has {len(clashes)} of the backup's files "
            f"(e.g. {clashes[0]}): restore into an empty MEDIA_ROOT."
        )
    with tempfile.TemporaryDirectory(prefix="restore-") as folder:
        unpacked = Path(folder)
        _unpack(archive_path, unpacked)
        database_file = unpacked / manifest.data["database"]["file"]
        _verify_database_file(manifest, database_file)
        _verify_media_files(manifest, unpacked / MEDIA_PREFIX)
        if vendor == "sqlite":
            staged = _stage_sqlite(manifest, database_file)
            commit = functools.partial(_swap_in_sqlite, staged)
        else:
            commit = functools.partial(_postgresql_restore, database_file)
        saved: list[str] = []
        try:
            _restore_media(manifest, unpacked / MEDIA_PREFIX, storage, saved=saved)
            commit()
        except BaseException as error:
            for name in saved:
                storage.delete(name)
            if vendor == "sqlite":
                _remove_sqlite_files(staged)
            if isinstance(error, OSError):
                raise BackupError(
                    f"Writing the restored site failed ({_reason(error)}): the site was left "
                    "as it was; fix the cause and run restore again."
                ) from None
            raise
    differences = compare_with_manifest(manifest, storage=storage)
    if differences:
        raise BackupError("The restored site differs from the backup: " + "; ".join(differences))
    # Rows written beneath the models' signals: no page cached before may be served after.
    bump_stamp()
    return manifest


def _check_database_is_new() -> None:
    """An empty database, or one that `migrate` made and nothing wrote to since (the habit of
    running `migrate` first): a restore replaces it whole."""
    try:
        counts = _current_counts()
    except (DatabaseError, OSError) as error:
        raise BackupError(
            f"The site's database cannot be opened ({_reason(error)}): check DATABASE_URL and "
            "run restore again."
        ) from None
    shadows = _search_index_shadow_tables()
    filled = sorted(
        name
        for name, rows in counts.items()
        if rows and name not in WRITTEN_BY_MIGRATE and name not in shadows
    )
    if filled:
        raise BackupError(
            f"The database already holds a site ({len(filled)} tables with rows, e.g. "
            f"{filled[0]}): a backup is restored into an empty database, or one only `migrate` "
            "has written to. Point DATABASE_URL at a new database and run restore again."
        )


def _search_index_shadow_tables() -> set[str]:
    """SQLite's full-text index keeps its bookkeeping in tables named after it (name_data,
    name_config...), which `migrate` fills when it creates the index."""
    if connection.vendor != "sqlite":
        return set()
    with connection.cursor() as cursor:
        virtual = [
            row[0]
            for row in cursor.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL%'"
            ).fetchall()
        ]
        names = [row[0] for row in cursor.execute(SQLITE_TABLES).fetchall()]
    return {name for name in names for table in virtual if name.startswith(table + "_")}


def _unpack(archive_path: Path, folder: Path) -> None:
    """Every member, read to its end (a truncated archive fails here, before anything is
    written), into `folder` only: the "data" filter refuses absolute names, `..`, links
    leading out and device files."""
    try:
        with tarfile.open(archive_path, "r:*") as archive:
            archive.extractall(folder, filter="data")
    except tarfile.FilterError as error:
        name = error.tarinfo.name if error.tarinfo else "?"
        raise BackupError(
            f"{archive_path} holds a member named {name!r}, which would be written outside "
            "the folder it is unpacked in: it was altered; restore from another backup."
        ) from None
    except UNREADABLE as error:
        raise _unreadable(archive_path, error) from None


def _unreadable(archive_path: Path, error: BaseException) -> BackupError:
    return BackupError(
        f"{archive_path} could not be read to its end ({_reason(error)}): it is truncated "
        "or damaged; copy it again or restore from another backup."
    )


def _verify_database_file(manifest: Manifest, database_file: Path) -> None:
    if not database_file.is_file():
        raise BackupError(
            f"The archive lacks its database file {database_file.name}: restore from another "
            "backup."
        )
    expected = manifest.data["database"].get("sha256")  # archives made before have none
    if expected is not None and _sha256(database_file) != expected:
        raise BackupError(
            f"The archive's database file {database_file.name} does not match its checksum: "
            "the archive is damaged; restore from another backup."
        )
    if manifest.data["database"]["vendor"] == "postgresql":
        try:
            _run([_pg_tool("pg_restore"), "--list", str(database_file)])
        except BackupError as error:
            raise BackupError(
                f"The archive's database dump cannot be read ({error}): restore from another "
                "backup."
            ) from None


def _verify_media_files(manifest: Manifest, folder: Path) -> None:
    for name, expected in manifest.media.items():
        path = folder / name
        if not path.is_file():
            raise BackupError(
                f"The archive lacks the media file {name}: nothing was restored; restore from "
                "another backup."
            )
        if path.stat().st_size != expected["bytes"] or _sha256(path) != expected["sha256"]:
            raise BackupError(
                f"The archive's media file {name} does not match its checksum: nothing was "
                "restored; restore from another backup."
            )


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        for block in iter(lambda: file.read(1024 * 1024), b""):
            digest.update(block)
    return digest.hexdigest()


def _stage_sqlite(manifest: Manifest, database_file: Path) -> Path:
    """The backup copied next to the site's database (the same disk, so os.replace swaps it in
    at once) and checked there: SQLite's integrity check and every table's row count."""
    target = _sqlite_target()
    staged = target.with_name(target.name + ".restoring")
    _remove_sqlite_files(staged)
    shutil.copyfile(database_file, staged)
    try:
        database = sqlite3.connect(staged)
        try:
            problems = [row[0] for row in database.execute("PRAGMA integrity_check").fetchall()]
            counts = _row_counts(database, SQLITE_TABLES)
        finally:
            database.close()
    except sqlite3.DatabaseError as error:
        problems, counts = [str(error)], {}
    if problems != ["ok"]:
        _remove_sqlite_files(staged)
        raise BackupError(
            f"The archive's database is damaged (SQLite's integrity check: {problems[0]}): "
            "restore from another backup."
        )
    if counts != manifest.tables:
        _remove_sqlite_files(staged)
        differing = sorted(set(counts.items()) ^ set(manifest.tables.items()))
        raise BackupError(
            f"The archive's database does not hold the rows its manifest lists (table "
            f"{differing[0][0]}): restore from another backup."
        )
    _remove_sqlite_files(staged, keep_database=True)
    return staged


def _sqlite_target() -> Path:
    name = str(connection.settings_dict["NAME"])
    if name in ("", ":memory:") or "mode=memory" in name:
        raise BackupError(
            "The site's database is in memory: point DATABASE_URL at a SQLite file and run "
            "restore again."
        )
    return Path(name).resolve()


def _remove_sqlite_files(database: Path, *, keep_database: bool = False) -> None:
    """A database file with its write-ahead log and shared memory: a log left beside a file
    swapped in would be replayed into it."""
    suffixes = ("-wal", "-shm") if keep_database else ("", "-wal", "-shm")
    for suffix in suffixes:
        Path(f"{database}{suffix}").unlink(missing_ok=True)


def _swap_in_sqlite(staged: Path) -> None:
    """The checked copy replaces the site's database in one rename. The site's connection is
    closed first and its log checkpointed away, so no page of the old file follows."""
    target = _sqlite_target()
    connection.close()
    if target.exists():
        database = sqlite3.connect(target)
        try:
            database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            database.close()
    _remove_sqlite_files(target, keep_database=True)
    os.replace(staged, target)


def _restore_media(manifest: Manifest, folder: Path, storage: Storage, *, saved: list[str]) -> None:
    """Each verified file saved under its own name; `saved` says which, to undo them."""
    for name in manifest.media:
        with open(folder / name, "rb") as file:
            stored = storage.save(name, File(file))
        saved.append(stored)
        if stored != name:
            raise BackupError(f"The storage stored {name} as {stored}: restore into an empty one.")


def _postgresql_restore(dump: Path) -> None:
    """One transaction: a failure leaves the database as it was. `--clean --if-exists` drops
    the tables `migrate` made first (a database with rows was refused before)."""
    connection.close()
    _run(
        [_pg_tool("pg_restore"), "--no-owner", "--no-privileges", "--exit-on-error",
         "--single-transaction", "--clean", "--if-exists",
         f"--dbname={_psycopg_parameters()['dbname']}", str(dump)],
    )  # fmt: skip


def _current_counts() -> dict[str, int]:
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            return _row_counts(cursor, SQLITE_TABLES)
    import psycopg

    with psycopg.connect(_conninfo()) as database:
        return _row_counts(database, POSTGRESQL_TABLES)


def compare_with_manifest(manifest: Manifest, *, storage: Storage = default_storage) -> list[str]:
    """What differs between the site now and the manifest: row counts, media files."""
    counts = _current_counts()
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


def _first(row: Any) -> str:
    return str(row[0])


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
        # One line, so that a refusal stays one line: PostgreSQL's tools write several.
        detail = " ".join(result.stderr.split())[-2000:] or f"exit status {result.returncode}"
        raise BackupError(f"{Path(command[0]).name} failed: {detail}")
