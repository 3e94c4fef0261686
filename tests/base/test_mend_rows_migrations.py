"""The data migrations mend rows stored before validation existed, and print each change with
the value it had. Rows are stored badly here the only ways left: QuerySet.update() and, for
lengths, SQLite (PostgreSQL refuses an over-long value itself)."""

import importlib

import pytest
from django.apps import apps
from django.db import DataError, connection, transaction

from base.validation import row_problems
from news.models import NewsItem
from people.models import Person, PersonLink
from publications.models import Authorship, Publication, PublicationLink
from tests.factories import make_news, make_person, make_publication

pytestmark = pytest.mark.django_db

MIGRATIONS = [
    "base.migrations.0007_mend_rows_stored_before_validation",
    "people.migrations.0008_mend_rows_stored_before_validation",
    "publications.migrations.0007_mend_rows_stored_before_validation",
    "news.migrations.0005_mend_rows_stored_before_validation",
]
SQLITE = connection.vendor == "sqlite"


def run_migrations(capsys) -> str:
    for name in MIGRATIONS:
        importlib.import_module(name).mend(apps, connection.schema_editor())
    return capsys.readouterr().out


def test_control_characters_and_years_are_mended_and_reported(capsys):
    # The initials rule left the name field for Person.clean_fields when outsiders became
    # researchers (issue 25): people 0008 still mends initials on the schema it ran on, where
    # the field carried the rule, but today's models give the mending no field to read it from.
    person = make_person(name="Fiona Smith")
    publication = make_publication(title="Bells", authors=["Bob Smith"])
    news = make_news(title="News")
    Person.objects.filter(pk=person.pk).update(bio="One\n\x01two")
    Publication.objects.filter(pk=publication.pk).update(title="Bells\x01\nand Whistles", year=0)
    Authorship.objects.filter(publication=publication).update(name="Bob\x0b Smith")
    NewsItem.objects.filter(pk=news.pk).update(body="Body\x1b text\r\nmore")

    report = run_migrations(capsys)

    person.refresh_from_db()
    publication.refresh_from_db()
    news.refresh_from_db()
    assert person.bio == "One\ntwo"
    assert publication.title == "Bells and Whistles" and publication.year is None
    assert Authorship.objects.get(publication=publication).name == "Bob Smith"
    assert news.body == "Body text\r\nmore"
    assert "publications.Publication" in report and "'Bells\\x01\\nand Whistles'" in report
    assert "year is cleared" in report
    for row in [person, publication, news]:
        assert row_problems(row) == []


def test_history_rows_are_mended_too_so_a_revert_brings_back_nothing_unsaveable(capsys):
    publication = make_publication(title="Bells")
    Publication.history.filter(id=publication.pk).update(title="Bells\x01")
    run_migrations(capsys)
    assert {record.title for record in Publication.history.filter(id=publication.pk)} == {"Bells"}


def test_rows_that_are_fine_are_left_alone_and_nothing_is_printed(capsys):
    make_publication(title="Fine", authors=["Ada"])
    make_person(name="Ada Lovelace", bio="Line one\nline two")
    assert run_migrations(capsys) == ""


def test_over_long_values_are_shortened_and_links_without_room_deleted(capsys):
    """Only SQLite stores a value longer than its column; PostgreSQL refuses it itself."""
    publication = make_publication(title="Bells")
    person = make_person()
    link = PublicationLink.objects.create(publication=publication, position=1, url="https://x.org")
    PersonLink.objects.create(person=person, position=1, url="https://y.org")
    long_url = "https://example.org/" + "a" * 1904
    if not SQLITE:
        with pytest.raises(DataError), transaction.atomic():
            PublicationLink.objects.filter(pk=link.pk).update(url=long_url)
        return
    PublicationLink.objects.filter(pk=link.pk).update(url=long_url)
    Publication.objects.filter(pk=publication.pk).update(
        title="word " * 120, doi="10.1234/" + "1" * 242
    )

    report = run_migrations(capsys)

    publication.refresh_from_db()
    assert len(publication.title) == 500 and publication.title.endswith("…")
    assert publication.doi == ""  # a DOI cut short names another paper, or none: cleared
    assert not PublicationLink.objects.filter(pk=link.pk).exists()
    assert long_url in report  # the address deleted is printed, not lost
    assert PersonLink.objects.filter(person=person).exists()
