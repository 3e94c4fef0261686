"""The public pages to render after an editor's save, before anyone asks for them
(base.site_cache.warm_after_answer): those showing what the save changed that a visitor is
most likely to open next."""

from django.urls import reverse
from django.utils.http import urlencode

from base.site_cache import ids_in
from people.models import Person
from publications.models import Publication


def pages_showing(scopes: frozenset[str], most: int) -> list[str]:
    """The paths, most looked-at first: the page of each paper the change wrote, then for each
    member whose own row or papers it wrote their profile and, when it wrote their papers and
    not their own row, the list of their papers (`?author=`, which reads their papers anew: at
    200,000 papers the most prolific member's took 75 ms on SQLite, over the lists' 60; a save
    of a person names their papers too, but a bio changes no list). Member by member: with
    three members on a paper and the default four pages, the third's profile gives way to the
    first's list. None of the papers when it wrote more than `most` of them (a bulk change, a
    person renamed on all their papers): a page among many is not the one a visitor opens
    next. Published rows only: a draft has no public page."""
    papers = ids_in(scopes, "paper:")
    own_rows = ids_in(scopes, "person:")
    papers_of = ids_in(scopes, "papers-of:") - own_rows
    people = own_rows | papers_of
    paths = []
    if papers and len(papers) <= most:
        paths += [
            paper.get_absolute_url()
            for paper in Publication.objects.published().filter(pk__in=papers).only("slug")
        ]
    if people and len(paths) < most:
        listing = reverse("publications:index")
        for person in (
            Person.objects.published().filter(pk__in=people).only("slug").order_by("pk")[:most]
        ):
            paths.append(person.get_absolute_url())
            if person.pk in papers_of:
                paths.append(f"{listing}?{urlencode({'author': person.slug})}")
    return paths[:most]
