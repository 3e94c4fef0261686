"""The text the publication search reads: one column per paper, so that a search is one scan
of one table (or, on PostgreSQL, one lookup in a trigram index) rather than a scan of every
author row joined to its paper.

`Publication.search_text` is the title, then each author's name, one per line, folded
(base/text.py: no case, no accents), so that "uber" finds "Über" on SQLite as on PostgreSQL:
a search folds its words the same way. It is set when a
paper or its authors are saved (publications/receivers.py), by the migration that added it, and
by writes that bypass signals (the BibTeX import's bulk insert, the benchmark's data set).
"""

from collections import defaultdict
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING

from django.db import connection
from django.db.models import Q
from django.db.models.expressions import RawSQL

from base.text import fold
from publications.models import Authorship, Publication

if TYPE_CHECKING:
    from django.db.backends.base.schema import BaseDatabaseSchemaEditor
    from django.db.migrations.state import StateApps


def search_text_of(
    *, title: str, authors: Iterable[str], translated_titles: Iterable[str] = ()
) -> str:
    """A line each: a word of the title or of a name begins the text or follows a line break,
    a space or a hyphen, as the search's word starts expect. Folded: the database need not
    know how to fold case or accents beyond ASCII (SQLite's LIKE does not).

    The title's translations staff gave (`title_zh_hans`) follow the original on its line, so
    a reader finds a paper by either, and their words still count as the title's."""
    titles = " ".join([title, *(text for text in translated_titles if text)])
    lines = [" ".join(titles.split()), *(" ".join(name.split()) for name in authors)]
    return fold("\n".join(lines))


def refresh_search_text(publication_id: int) -> None:
    """Two queries, and an update when the text changed."""
    refresh_search_texts([publication_id])


def refresh_search_texts(publication_ids: Iterable[int]) -> None:
    """Two queries a batch of papers (a bulk write's), and an update for each text changed."""
    ids = sorted(set(publication_ids))
    for start in range(0, len(ids), REFRESH_BATCH):
        batch = ids[start : start + REFRESH_BATCH]
        rows = list(
            Publication.objects.filter(pk__in=batch).values_list(
                "pk", "title", "title_zh_hans", "search_text"
            )
        )
        if not rows:  # deleted with their authors
            continue
        names: dict[int, list[str]] = defaultdict(list)
        authors = (
            Authorship.objects.filter(publication__in=batch)
            .order_by("publication", "position")
            .values_list("publication", "name")
        )
        for publication, name in authors:
            names[publication].append(name)
        for pk, title, title_zh_hans, stored in rows:
            text = search_text_of(title=title, authors=names[pk], translated_titles=[title_zh_hans])
            if text != stored:
                # Moves the change stamp as a save would (SiteQuerySet).
                Publication.objects.filter(pk=pk).update(search_text=text)


# Papers whose search texts are read per round of queries.
REFRESH_BATCH = 500


# SQLite only: an FTS5 index of the search text, kept in step by triggers on the table (so
# every write, bulk or raw, updates it). A search asks it for candidates first and then applies
# the word-start patterns to those rows only, rather than to every row: at 200,000 papers, 20 to
# 50 ms a word instead of 150 to 200. PostgreSQL has its trigram index (migration 0011).
FULL_TEXT_TABLE = "publications_publication_fts"
FULL_TEXT_TRIGGERS = {
    f"{FULL_TEXT_TABLE}_insert": f"""
        AFTER INSERT ON publications_publication BEGIN
            INSERT INTO {FULL_TEXT_TABLE} (rowid, search_text) VALUES (new.id, new.search_text);
        END""",
    f"{FULL_TEXT_TABLE}_delete": f"""
        AFTER DELETE ON publications_publication BEGIN
            INSERT INTO {FULL_TEXT_TABLE} ({FULL_TEXT_TABLE}, rowid, search_text)
            VALUES ('delete', old.id, old.search_text);
        END""",
    f"{FULL_TEXT_TABLE}_update": f"""
        AFTER UPDATE OF search_text ON publications_publication BEGIN
            INSERT INTO {FULL_TEXT_TABLE} ({FULL_TEXT_TABLE}, rowid, search_text)
            VALUES ('delete', old.id, old.search_text);
            INSERT INTO {FULL_TEXT_TABLE} (rowid, search_text) VALUES (new.id, new.search_text);
        END""",
}


def create_full_text_index(apps: "StateApps", schema_editor: "BaseDatabaseSchemaEditor") -> None:
    """Made, or made again, from the table's rows: a migration that makes SQLite rebuild the
    publications table loses the triggers (a test says so) and must call this after."""
    if schema_editor.connection.vendor != "sqlite":
        return
    drop_full_text_index(apps, schema_editor)
    schema_editor.execute(
        f"CREATE VIRTUAL TABLE {FULL_TEXT_TABLE} USING fts5("
        "search_text, content='publications_publication', content_rowid='id')"
    )
    for name, body in FULL_TEXT_TRIGGERS.items():
        schema_editor.execute(f"CREATE TRIGGER {name} {body}")
    schema_editor.execute(f"INSERT INTO {FULL_TEXT_TABLE} ({FULL_TEXT_TABLE}) VALUES ('rebuild')")


def drop_full_text_index(apps: "StateApps", schema_editor: "BaseDatabaseSchemaEditor") -> None:
    if schema_editor.connection.vendor != "sqlite":
        return
    for name in FULL_TEXT_TRIGGERS:
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {name}")
    schema_editor.execute(f"DROP TABLE IF EXISTS {FULL_TEXT_TABLE}")


# Set while a search reads a few papers by key (by_key): the index's candidates are left out.
_by_key: ContextVar[bool] = ContextVar("search_by_key", default=False)


@contextmanager
def by_key() -> Iterator[None]:
    """Searches made within read a few papers by key (a search's first rows brought up to date
    after an edit: pages/views/publications.py): full_text_candidates gives none, since SQLite
    would list every match of the index first (120-300 ms for a common word at 200,000 papers)
    to keep a few rows the patterns read at once."""
    token = _by_key.set(True)
    try:
        yield
    finally:
        _by_key.reset(token)


def full_text_candidates(word: str) -> Q | None:
    """On SQLite, the papers whose search text has a word starting like `word`, from the FTS5
    index: never fewer than the word-start patterns find, so those still decide.

    Only for ASCII words with a letter or digit. The index splits text at every character that
    is not a letter or digit and folds case and accents; for an ASCII word the text's own words
    then start with the word's pieces wherever a pattern matches. Other words (no letter, or
    letters the index may split or fold differently) are left to the patterns alone.
    """
    if (
        _by_key.get()
        or connection.vendor != "sqlite"
        or not word.isascii()
        or not any(map(str.isalnum, word))
    ):
        return None
    phrase = '"' + word.replace('"', '""') + '"*'  # the word's pieces in a row, the last a prefix
    return Q(
        pk__in=RawSQL(
            f"SELECT rowid FROM {FULL_TEXT_TABLE} WHERE {FULL_TEXT_TABLE} MATCH %s", (phrase,)
        )
    )
