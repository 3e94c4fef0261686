"""Small builders for test data: each takes keyword arguments that override its defaults."""

from itertools import count

from news.models import NewsItem
from people.models import Person, RoleGroup
from publications.models import Authorship, Publication, Venue

_numbers = count(1)


def make_group(**fields) -> RoleGroup:
    number = next(_numbers)
    fields = {"name": f"Group {number}", "slug": f"group-{number}", **fields}
    return RoleGroup.objects.create(**fields)


def make_person(**fields) -> Person:
    number = next(_numbers)
    fields = {"name": f"Person {number}", "slug": f"person-{number}", **fields}
    return Person.objects.create(**fields)


def make_venue(**fields) -> Venue:
    number = next(_numbers)
    fields = {"short_name": f"VENUE{number}", "full_name": f"Venue number {number}", **fields}
    return Venue.objects.create(**fields)


def make_publication(*, authors=(), **fields) -> Publication:
    """`authors` holds names (str) or members (Person), in printed order."""
    number = next(_numbers)
    fields = {"title": f"Paper {number}", "slug": f"paper-{number}", "year": 2024, **fields}
    publication = Publication.objects.create(**fields)
    Authorship.objects.bulk_create(
        Authorship(
            publication=publication,
            position=position,
            name=author.name if isinstance(author, Person) else author,
            person=author if isinstance(author, Person) else None,
        )
        for position, author in enumerate(authors, start=1)
    )
    return publication


def make_news(**fields) -> NewsItem:
    number = next(_numbers)
    fields = {"title": f"News {number}", "slug": f"news-{number}", "date": "2026-07", **fields}
    return NewsItem.objects.create(**fields)
