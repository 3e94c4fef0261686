from itertools import groupby

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from base.structured_data import json_ld_script
from publications.coins import context_object
from publications.entries import rendered_entries
from publications.structured_data import scholarly_article

register = template.Library()

EQUAL_CONTRIBUTION = '<abbr class="equal" title="Equal contribution">*</abbr>'


# A list entry names this many authors before "+N more", and every member and every
# equal-contribution author after them: a 40-author paper's line stays two lines long and still
# shows the lab's own people.
SHOWN_AUTHORS = 10


def _author_names(publication) -> list[tuple[SafeString, bool]]:
    """Each author's name as HTML, and whether the author must be named in a shortened line (a
    member, or an equal contributor). Reads the prefetched authorships of
    Publication.objects.for_listing(): no query."""
    names: list[tuple[SafeString, bool]] = []
    for author in publication.authorships.all():
        member = bool(author.person and author.person.is_published)
        if member:
            name = format_html(
                '<a class="member" href="{}"><bdi>{}</bdi></a>',
                author.person.get_absolute_url(),
                author.name,
            )
        else:
            name = format_html("<bdi>{}</bdi>", author.name)
        if author.equal_contribution:
            name = format_html("{}{}", name, mark_safe(EQUAL_CONTRIBUTION))
        names.append((name, member or author.equal_contribution))
    return names


@register.filter
def author_list(publication) -> str:
    """The authors in printed order, members linked, equal contributions marked.

    Built in Python because a list page shows hundreds of names, which a template loop renders
    slowly."""
    return mark_safe(", ".join(name for name, _ in _author_names(publication)))


@register.filter
def short_author_list(publication) -> str:
    """The author line of a list entry: the first SHOWN_AUTHORS names, then only the members
    and equal contributors ("…" where names are left out), and a "+N more" that shows the whole
    line in place without JavaScript (a <details>). A line at most two names longer is whole."""
    names = _author_names(publication)
    if len(names) <= SHOWN_AUTHORS + 2:
        return author_list(publication)
    short: list[str] = []
    hidden = 0
    for position, (name, kept) in enumerate(names):
        if position < SHOWN_AUTHORS or kept:
            short.append(name)
        else:
            if not short or short[-1] != "…":
                short.append("…")
            hidden += 1
    return format_html(
        '<span class="authors__short">{}</span> <details class="authors__more">'
        '<summary><span class="authors__open">+{} more<span class="visually-hidden"> authors'
        '</span></span><span class="authors__close">Fewer authors</span></summary>'
        '<span class="authors__all">{}</span></details>',
        mark_safe(", ".join(short)),
        hidden,
        author_list(publication),
    )


@register.simple_tag(takes_context=True)
def publication_entries(context, publications, without_cite=False):
    """The entries of a list (publications/entries.py): Publication objects from
    Publication.objects.for_listing(), or `Listed` rows, whose entries are loaded if not kept."""
    entries = rendered_entries(context["request"], publications, cite=not without_cite)
    return mark_safe("".join(entries.values()))


@register.simple_tag(takes_context=True)
def publications_by_year(context, publications) -> list[tuple[int | None, str]]:
    """The entries of a list in runs of one year, each run's entries as one piece of HTML: one
    rendering (and at most one load) for the whole list, whatever the number of years."""
    publications = list(publications)
    entries = rendered_entries(context["request"], publications)
    shown = [(p.year, entries[p.pk]) for p in publications if p.pk in entries]
    runs = groupby(shown, key=lambda pair: pair[0])
    return [(year, mark_safe("".join(html for _, html in run))) for year, run in runs]


@register.simple_tag(takes_context=True)
def publication_json_ld(context, publication):
    """With the page's `funding` when it gives one (schema.org Grants, built by the layer that
    knows grants: pages/views/projects.py)."""
    data = scholarly_article(publication, request=context["request"])
    if funding := context.get("funding"):
        data["funding"] = funding
    return json_ld_script(data)


@register.simple_tag(takes_context=True)
def coins(context, publication):
    """The paper for Zotero (publications/coins.py): an empty span, nothing shown."""
    url = context["request"].build_absolute_uri(publication.get_absolute_url())
    return format_html(
        '<span class="Z3988" title="{}"></span>', context_object(publication, url=url)
    )
