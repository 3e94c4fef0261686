"""The seed's rows, loaded by `loaddata` once per run and copied into each later seeded test
class (tests/cases.py's SeededTestCase).

Loading the four profiles' fixtures saves about 370 rows one by one, each validated, with the
rows derived from it (search texts, co-author pairs, history): 5 s per class on SQLite, 10 on
PostgreSQL, for about thirty classes in a run. The first seeded class of a run loads them as
`make run` does, and the rows every table of the site then holds are kept; each later class
writes the same rows into the same tables in one statement per table (DELETE, then INSERT),
inside its own transaction, as its fixtures would have been. The database each class sees is
the same, row for row; `loaddata` itself still runs every run (here, and in
tests/config/test_fixtures.py).

Only the tables of the site's models are copied, and SQLite's numbering of new rows
(`sqlite_sequence`, last): its full-text index of the papers is kept in step by its triggers
as the papers' rows are written, as on any write. On PostgreSQL the sequences are moved past
the ids written, as loaddata moves them (no rollback winds them back: a new row's id differs
from class to class there whichever way the seed came). And the change is noted as loaddata's
saves note it (`site_cache.note_change`), pending until the class's transaction commits, which
it never does: a seeded class runs its tests beside a write not yet committed, whichever way
its seed came, so pages and kept values are not cached in it.
"""

from dataclasses import dataclass

from django.apps import apps
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper

from base import site_cache
from config.management.commands.seed import FIXTURES


@dataclass(frozen=True)
class Table:
    columns: tuple[str, ...]
    rows: tuple[tuple, ...]


# Per database (its vendor and name): the tables the seed wrote, as the load left them.
_seeded: dict[tuple[str, str], dict[str, Table]] = {}


def load_seed(using: str) -> None:
    """The seed's rows in database `using`, inside the transaction the caller opened."""
    connection = connections[using]
    key = (connection.vendor, str(connection.settings_dict["NAME"]))
    if (tables := _seeded.get(key)) is not None:
        write(connection, tables)
        site_cache.note_change(using=using)
        return
    before = contents(connection)
    call_command("loaddata", *FIXTURES, verbosity=0, database=using)
    after = contents(connection)
    _seeded[key] = {name: table for name, table in after.items() if table != before.get(name)}


def contents(connection: BaseDatabaseWrapper) -> dict[str, Table]:
    """Every row of every table of the site's models (many-to-many tables too), in the order
    the database gives them; on SQLite its numbering of new rows last."""
    names = sorted(connection.introspection.django_table_names(only_existing=True))
    if connection.vendor == "sqlite":
        names.append("sqlite_sequence")  # made by the first table AUTOINCREMENT numbers
    tables = {}
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        for name in names:
            cursor.execute(f"SELECT * FROM {quote(name)}")
            columns = tuple(column[0] for column in cursor.description)
            tables[name] = Table(columns, tuple(cursor.fetchall()))
    return tables


def write(connection: BaseDatabaseWrapper, tables: dict[str, Table]) -> None:
    """Each table as kept: its rows replaced (foreign keys are checked when the transaction
    ends, so the order of the tables does not matter; `sqlite_sequence` comes last, after the
    inserts that move it), then PostgreSQL's sequences moved past the ids written, as loaddata
    moves them."""
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        for name, table in tables.items():
            cursor.execute(f"DELETE FROM {quote(name)}")
            if table.rows:
                columns = ", ".join(map(quote, table.columns))
                values = ", ".join(["%s"] * len(table.columns))
                cursor.executemany(
                    f"INSERT INTO {quote(name)} ({columns}) VALUES ({values})", table.rows
                )
        models = [
            model
            for model in apps.get_models(include_auto_created=True)
            if model._meta.db_table in tables
        ]
        for statement in connection.ops.sequence_reset_sql(no_style(), models):
            cursor.execute(statement)
