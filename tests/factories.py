"""Small builders for test data: each takes keyword arguments that override its defaults."""

import datetime
import xml.etree.ElementTree as ElementTree
from itertools import count
from typing import TypeVar

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import connection, models, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from base.models import Lab
from events.models import Event
from news.models import NewsItem
from people.models import Person, RoleGroup
from publications.derived import refreshed_once
from publications.models import Authorship, Publication, PublicationAward, PublicationLink, Venue

_numbers = count(1)
SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
Named = TypeVar("Named", bound=models.Model)


def make_named(model: type[Named], name: str, slug: str, fields: dict) -> Named:
    """A row of `model` called "<name> <n>" at the address "<slug>-<n>" (n counts up across
    the run, so that rows never clash), unless `fields` name it otherwise."""
    number = next(_numbers)
    return model.objects.create(
        **{"name": f"{name} {number}", "slug": f"{slug}-{number}", **fields}
    )


def make_group(**fields) -> RoleGroup:
    return make_named(RoleGroup, "Group", "group", fields)


def make_person(**fields) -> Person:
    return make_named(Person, "Person", "person", fields)


def make_venue(**fields) -> Venue:
    number = next(_numbers)
    fields = {"short_name": f"VENUE{number}", "full_name": f"Venue number {number}", **fields}
    return Venue.objects.create(**fields)


def make_publication(*, authors=(), **fields) -> Publication:
    """`authors` holds names (str) or members (Person), in printed order."""
    number = next(_numbers)
    fields = {"title": f"Paper {number}", "slug": f"paper-{number}", "year": 2024, **fields}
    # One save each, as the admin saves a paper with its authors: the paper's citation key,
    # search text and co-author pairs are made once, as the block ends, not after every save.
    with transaction.atomic(), refreshed_once():
        publication = Publication.objects.create(**fields)
        for position, author in enumerate(authors, start=1):
            Authorship.objects.create(
                publication=publication,
                position=position,
                name=author.name if isinstance(author, Person) else author,
                person=author if isinstance(author, Person) else None,
            )
    publication.refresh_from_db(fields=["citation_key"])
    return publication


def make_news(**fields) -> NewsItem:
    number = next(_numbers)
    fields = {"title": f"News {number}", "slug": f"news-{number}", "date": "2026-07", **fields}
    return NewsItem.objects.create(**fields)


def make_event(*, starts_in: datetime.timedelta, hours: float = 1, **fields) -> Event:
    """A talk starting `starts_in` from now (negative: in the past), lasting `hours`."""
    number = next(_numbers)
    start = timezone.now().replace(microsecond=0) + starts_in
    fields = {
        "title": f"Talk {number}",
        "slug": f"talk-{number}",
        "starts_at": start,
        "ends_at": start + datetime.timedelta(hours=hours),
        **fields,
    }
    return Event.objects.create(**fields)


def make_cached_site() -> Person:
    """The lab row, one member and one paper: the small site the page-cache tests serve. The
    lab row is made here, else the first page makes it and moves the stamp."""
    Lab.objects.current()
    member = make_person(name="Hang Zhu", slug="hang-zhu")
    make_publication(
        title="Klotski",
        slug="klotski",
        year=2023,
        venue=make_venue(short_name="NSDI"),
        authors=[member, "Bo Zhao"],
    )
    return member


def make_publication_rows(count: int, *, with_links: bool = False) -> None:
    """`count` publications over 3 members and 4 venues, every 7th with an award (and a link),
    for the tests that check a page's queries do not grow with its rows."""
    members = [make_person(name=f"Member {number}") for number in range(3)]
    venues = [make_venue() for _ in range(4)]
    for number in range(count):
        publication = make_publication(
            title=f"Paper {number}",
            year=2000 + number % 20,
            venue=venues[number % 4],
            authors=[members[number % 3], "Outside Author", members[(number + 1) % 3]],
        )
        if number % 7 == 0:
            PublicationAward.objects.create(publication=publication, position=1, name="Best Paper")
            if with_links:
                PublicationLink.objects.create(
                    publication=publication, position=1, url=f"https://example.org/{number}.pdf"
                )


def html_of(client, url: str) -> str:
    """The page at `url`, as text; it must answer 200."""
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def sitemap_locations(client) -> set[str]:
    """The addresses /sitemap.xml lists."""
    response = client.get("/sitemap.xml")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/xml"
    root = ElementTree.fromstring(response.content)
    return {url.findtext(f"{SITEMAP}loc") for url in root.findall(f"{SITEMAP}url")}


def count_queries(client, url: str) -> int:
    """The SQL queries one GET of `url` runs; it must answer 200."""
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def assert_as_many_queries_for_many_rows(client, url: str, add, *, few: int, many: int) -> None:
    """One GET of `url` runs as many queries once `add(number)` has made rows `few` to `many`
    as it ran after rows 0 to `few`: no query per row."""
    for number in range(few):
        add(number)
    queries = count_queries(client, url)
    for number in range(few, many):
        add(number)
    assert count_queries(client, url) == queries


def assert_off_every_public_page(client, draft, *, title: str, pages) -> None:
    """A draft's own page is not found, and its `title` is on none of `pages`."""
    assert client.get(draft.get_absolute_url()).status_code == 404
    for page in pages:
        assert title not in client.get(page).text, page


def make_staff_login(username: str, *, role: str):
    """A staff login in the role group `role` ("Editors" or "Member logins")."""
    user = get_user_model().objects.create_user(username, password="pw", is_staff=True)
    user.groups.add(Group.objects.get(name=role))
    return user


def give_member_login(person: Person, username: str):
    """A login in the Member logins group for `person`, who then edits their own rows."""
    login = make_staff_login(username, role="Member logins")
    person.user = login
    person.save()
    return login


def make_member(username: str, name: str) -> Person:
    """A member whose login is in the Member logins group: they edit their own rows."""
    login = make_staff_login(username, role="Member logins")
    return make_person(name=name, slug=username, user=login)
