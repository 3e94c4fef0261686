"""Text as the site compares and shows it: folded for matching, Markdown made safe for pages."""

import unicodedata

import markdown as markdown_library
import nh3
from django.db.models import Q
from django.utils.safestring import SafeString, mark_safe

ALLOWED_TAGS = {
    "a", "abbr", "b", "blockquote", "br", "code", "em", "h2", "h3", "h4", "hr", "i", "li",
    "ol", "p", "pre", "strong", "sub", "sup", "table", "tbody", "td", "th", "thead", "tr", "ul",
}  # fmt: skip


def fold(text: str) -> str:
    """Without case or accents, compatibility characters spelled out: "FInal Núñez" is
    "final nunez". What names, titles and citation keys are compared by."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(char for char in decomposed if not unicodedata.combining(char)).casefold()


def markdown_to_html(text: str) -> SafeString:
    """Markdown written by staff, as HTML with anything executable removed."""
    html = markdown_library.markdown(text or "", extensions=["tables", "sane_lists"])
    cleaned = nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        attributes={"a": {"href", "title"}, "abbr": {"title"}},
        url_schemes={"http", "https", "mailto"},
        link_rel="noopener noreferrer nofollow",
    )
    return mark_safe(cleaned)


# What may stand before a word in a name ("Wei-Ying"), in a title or text ("(NSDI)", "I/O"),
# and in a list of one entry per line.
NAME_BREAKS = (" ", "-")
TEXT_BREAKS = (" ", "-", "(", "/", "\n")


def word_start(field: str, word: str, *, breaks: tuple[str, ...] = TEXT_BREAKS) -> Q:
    """`field` has a word starting with `word`, ignoring case: "Hang" matches "Hang Zhu" and
    "Hangzhou", not "Zhang". Plain LIKE patterns (the text starts with the word, or has it after
    one of `breaks`) rather than a regular expression, which SQLite runs in Python row by row:
    at 20,000 papers a regular expression took seconds a search. Each break costs a pattern, so
    names, the longest table searched, are given only theirs."""
    match = Q(**{f"{field}__istartswith": word})
    for before in breaks:
        match |= Q(**{f"{field}__icontains": f"{before}{word}"})
    return match
