"""Rows stored before validation existed (or by `QuerySet.update()`, which skips it) still render:
every page, feed and export answers 200 and parses, showing the text without its control
characters. Before this change a U+0001 in a title made /publications/feed/ answer 500
(UnserializableContentError), and a year 0 made the feed fail on its date."""

import pytest
from django.db import connection

from news.models import NewsItem
from people.models import Person
from publications.models import Authorship, Publication, PublicationLink, Venue
from tests.factories import make_news, make_person, make_publication, make_venue
from tests.renderings import read_everything

pytestmark = pytest.mark.django_db

# PostgreSQL cannot store NUL in text, so only SQLite can hold a row with one.
NUL = "\x00" if connection.vendor == "sqlite" else ""
# 1,924 characters, as an import stored on SQLite; PostgreSQL refuses to store it.
LONG_URL = "https://example.org/" + "a" * (1904 if connection.vendor == "sqlite" else 100)


@pytest.fixture
def stored_badly():
    member = make_person(name="Ada Lovelace", slug="ada")
    venue = make_venue(short_name="BAD", full_name="Workshop on Bells")
    publication = make_publication(
        title="Placeholder", slug="bells", venue=venue, authors=[member, "Bob"]
    )
    news = make_news(title="Placeholder", slug="bells-news")
    news.publications.add(publication)
    news.people.add(member)
    PublicationLink.objects.create(publication=publication, position=1, url="https://x.org/a.pdf")
    # What validation now refuses, written the ways that skip it.
    Publication.objects.filter(pk=publication.pk).update(
        title=f"Bells\x01 and{NUL} Whistles", year=0, abstract="Line\x1b one.\n\nTwo\x07."
    )
    Authorship.objects.filter(publication=publication, name="Bob").update(name="Bob\x0b Smith")
    PublicationLink.objects.filter(publication=publication).update(url=LONG_URL)
    Person.objects.filter(pk=member.pk).update(bio="Bio\x08 text", position_title="Chair\x01")
    NewsItem.objects.filter(pk=news.pk).update(title="Ringing\x1f bells", body=f"Body{NUL}\x01")
    Venue.objects.filter(pk=venue.pk).update(full_name="Workshop\x02 on Bells")
    return {
        "person": Person.objects.get(pk=member.pk),
        "publication": Publication.objects.get(pk=publication.pk),
        "news": NewsItem.objects.get(pk=news.pk),
    }


def test_every_page_feed_and_export_of_a_badly_stored_row_answers_and_parses(client, stored_badly):
    reading = read_everything(client, **stored_badly)
    title = "Bells and Whistles"
    assert reading.feed_titles["/publications/feed/"] == [title]
    assert reading.feed_titles["/publications/feed/?author=ada"] == [title]
    assert reading.feed_titles["/news/feed/"] == ["Ringing bells"]
    assert "Bells" in reading.texts["/publications/bells/"]
    assert [entry["title"] for entry in reading.bibtex["/publications/export.bib"]] == [title]
    assert [entry["title"] for entry in reading.ris] == [title]
    assert [item["title"] for item in reading.csl] == [title]
    assert [row["title"] for row in reading.csv_rows] == [title]
    [article] = reading.json_ld["/publications/bells/"]
    assert article["name"] == title


def test_a_year_stored_out_of_range_is_left_out_of_dates_not_a_500(client, stored_badly):
    feed = client.get("/publications/feed/").content.decode()
    assert "<published>" not in feed and "<updated>" in feed  # the feed's own update date
