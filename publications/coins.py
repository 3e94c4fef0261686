"""COinS (ContextObjects in Spans): each entry of a publication list carries an empty
<span class="Z3988" title="..."> holding an OpenURL 1.0 description of the paper, which Zotero
and other reference managers read to offer every paper of a page to save.

The fields are the BibTeX export's (publications/exports.py): the same kind of work, title,
authors in order, venue, year and DOI, so a paper saved from a list matches the .bib file.
"""

from urllib.parse import urlencode

from publications.exports import BIBTEX_TYPES
from publications.models import Publication

CONTEXT_VERSION = "Z39.88-2004"
# By BibTeX type: the OpenURL format, its genre, and the keys of the title and the venue.
# Zotero reads "book" with genre "proceeding" as a conference paper, "bookitem" as a chapter.
FORMATS: dict[str, tuple[str, str | None, str, str]] = {
    "article": ("journal", "article", "rft.atitle", "rft.jtitle"),
    "inproceedings": ("book", "proceeding", "rft.atitle", "rft.btitle"),
    "incollection": ("book", "bookitem", "rft.atitle", "rft.btitle"),
    "phdthesis": ("dissertation", None, "rft.title", "rft.inst"),
    "misc": ("book", "document", "rft.btitle", "rft.pub"),
}


def context_object(publication: Publication, *, url: str) -> str:
    """The span's title: a KEV query string. Reads only what for_listing() loads."""
    venue = publication.venue
    bibtex_type = BIBTEX_TYPES[publication.type] if venue else "misc"
    format_name, genre, title_key, venue_key = FORMATS[bibtex_type]
    pairs: list[tuple[str, str]] = [
        ("ctx_ver", CONTEXT_VERSION),
        ("rft_val_fmt", f"info:ofi/fmt:kev:mtx:{format_name}"),
        ("rft_id", url),
    ]
    if publication.doi:
        pairs.append(("rft_id", f"info:doi/{publication.doi}"))
    if genre:
        pairs.append(("rft.genre", genre))
    pairs.append((title_key, publication.title))
    if venue:
        pairs.append((venue_key, venue.display_name))
    pairs += [("rft.au", authorship.name) for authorship in publication.authorships.all()]
    if publication.year:
        pairs.append(("rft.date", str(publication.year)))
    return urlencode(pairs)
