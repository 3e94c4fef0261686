from itertools import groupby

from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from directory.structured_data import json_ld_script
from publications.coins import context_object
from publications.entries import rendered_entries
from publications.structured_data import scholarly_article

register = template.Library()

EQUAL_CONTRIBUTION = '<abbr class="equal" title="Equal contribution">*</abbr>'


@register.filter
def author_list(publication) -> str:
    """The authors in printed order, members linked, equal contributions marked.

    Reads the prefetched authorships of Publication.objects.for_listing(): no query. Built in
    Python because a list page shows hundreds of names, which a template loop renders slowly.
    """
    names = []
    for author in publication.authorships.all():
        if author.person_id and author.person.is_published:
            name = format_html(
                '<a class="member" href="{}"><bdi>{}</bdi></a>',
                author.person.get_absolute_url(),
                author.name,
            )
        else:
            name = format_html("<bdi>{}</bdi>", author.name)
        names.append(name + EQUAL_CONTRIBUTION if author.equal_contribution else name)
    return mark_safe(", ".join(names))


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
    return json_ld_script(scholarly_article(publication, request=context["request"]))


@register.simple_tag(takes_context=True)
def coins(context, publication):
    """The paper for Zotero (publications/coins.py): an empty span, nothing shown."""
    url = context["request"].build_absolute_uri(publication.get_absolute_url())
    return format_html(
        '<span class="Z3988" title="{}"></span>', context_object(publication, url=url)
    )
