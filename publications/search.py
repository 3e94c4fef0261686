"""The text the publication search reads: one column per paper, so that a search is one scan
of one table (or, on PostgreSQL, one lookup in a trigram index) rather than a scan of every
author row joined to its paper.

`Publication.search_text` is the title, then each author's name, one per line. It is set when a
paper or its authors are saved (publications/receivers.py), by the migration that added it, and
by writes that bypass signals (the BibTeX import's bulk insert, the benchmark's data set).
"""

from collections.abc import Iterable

from directory.site_cache import note_change
from publications.models import Authorship, Publication


def search_text_of(*, title: str, authors: Iterable[str]) -> str:
    """A line each: a word of the title or of a name begins the text or follows a line break,
    a space or a hyphen, as the search's word starts expect."""
    return "\n".join([" ".join(title.split()), *(" ".join(name.split()) for name in authors)])


def refresh_search_text(publication_id: int) -> None:
    """Two queries, and an update when the text changed."""
    row = Publication.objects.filter(pk=publication_id).values("title", "search_text").first()
    if row is None:  # deleted with its authors
        return
    names = (
        Authorship.objects.filter(publication=publication_id)
        .order_by("position")
        .values_list("name", flat=True)
    )
    text = search_text_of(title=row["title"], authors=names)
    if text != row["search_text"]:
        Publication.objects.filter(pk=publication_id).update(search_text=text)
        note_change()  # an update sends no signal
