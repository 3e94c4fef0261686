"""Exports built from rows made here: query counts, the cap, drafts, keys and the round trip."""

import bibtexparser
import pytest
from django.core.management import call_command

from config.management.commands.seed import FIXTURES
from people.models import Person
from publications import views
from publications.bibtex import import_bibtex
from publications.citation_keys import citation_keys
from publications.exports import bibtex
from publications.models import Publication, Venue
from tests.factories import (
    count_queries,
    make_publication,
    make_publication_rows,
    make_venue,
)

pytestmark = pytest.mark.django_db

FORMATS = ["bib", "ris", "json", "csv"]


@pytest.mark.parametrize("format", FORMATS)
@pytest.mark.parametrize("rows", [5, 200])
def test_an_export_runs_a_fixed_number_of_queries(client, rows, format):
    """No query per publication, author, award or link; the citation keys are on the rows.

    venue choices, member choices, the count (checked against the cap before any row is read),
    rows, authors' names, awards, links.
    """
    make_publication_rows(rows, with_links=True)
    member = Person.objects.first()
    assert count_queries(client, f"/publications/export.{format}") == 7
    filtered = f"/publications/export.{format}?author={member.slug}&year=2003&q=paper"
    assert count_queries(client, filtered) == 7


def test_an_export_larger_than_the_cap_is_refused_and_says_to_filter(client, monkeypatch):
    monkeypatch.setattr(views, "EXPORT_MAX_ROWS", 3)
    venue = make_venue(short_name="NSDI")
    for number in range(4):
        make_publication(title=f"Paper {number}", venue=venue if number < 2 else None)
    response = client.get("/publications/export.bib")
    assert response.status_code == 400
    assert "More than 3 publications match: narrow the filters." in response.content.decode()
    assert client.get("/publications/export.bib?venue=NSDI").status_code == 200


def test_drafts_are_not_exported(client):
    make_publication(title="Shown")
    draft = make_publication(title="Draft", is_published=False)
    text = client.get("/publications/export.bib").content.decode()
    assert "Shown" in text and "Draft" not in text
    assert client.get(f"/publications/{draft.slug}.bib").status_code == 404


def test_citation_keys_are_deduplicated_in_the_order_papers_were_added():
    first = make_publication(title="The Klotski System", year=2023, authors=["Yihao Zhao"])
    second = make_publication(title="Klotski Again", year=2023, authors=["Ann Zhao"])
    third = make_publication(title="Klotski, a third", year=2023, authors=["Zhao, Bo"])
    other = make_publication(title="On Caching", year=None, authors=["José Núñez"])
    assert citation_keys([third, other, first, second]) == {
        third.pk: "zhao2023klotskic",
        other.pk: "nunezcaching",
        first.pk: "zhao2023klotski",
        second.pk: "zhao2023klotskib",
    }


def test_a_key_does_not_change_when_a_later_paper_would_share_it():
    first = make_publication(title="Klotski", year=2023, authors=["Yihao Zhao"])
    before = citation_keys([first])[first.pk]
    make_publication(title="Klotski", year=2023, authors=["Yihao Zhao"], slug="klotski-two")
    assert citation_keys([first])[first.pk] == before == "zhao2023klotski"


def test_accents_ampersands_braces_and_commas_survive_a_bibtex_round_trip():
    venue = make_venue(short_name="S&P", full_name="IEEE Symposium on Security & Privacy")
    publication = make_publication(
        title="Café {GPU} Über 100% of $x$_y & more",
        year=2021,
        venue=venue,
        authors=["José García", "Barnes and Noble, Inc.", "Ludwig van Beethoven"],
    )
    text = bibtex(Publication.objects.published().for_listing())
    Publication.objects.all().delete()
    Venue.objects.all().delete()
    result = import_bibtex(text=text)
    (imported,) = result.created
    assert imported.title == publication.title
    assert list(imported.authorships.values_list("name", flat=True)) == [
        "José García",
        "Barnes and Noble, Inc.",
        "Ludwig van Beethoven",
    ]
    assert (imported.venue.short_name, imported.venue.full_name) == (
        venue.short_name,
        venue.full_name,
    )


def test_the_seeded_publications_survive_a_round_trip_through_bibtex(client):
    """Export the fixtures, empty the publications and venues, import the file: the same list."""
    call_command("loaddata", *FIXTURES, verbosity=0)

    def snapshot():
        return sorted(
            (
                publication.title,
                publication.year,
                publication.venue.short_name if publication.venue else None,
                publication.venue.full_name if publication.venue else None,
                publication.venue.kind if publication.venue else None,
                publication.type,
                publication.status,
                tuple((a.name, a.person_id) for a in publication.authorships.all()),
            )
            for publication in Publication.objects.for_listing()
        )

    before = snapshot()
    text = client.get("/publications/export.bib").content.decode()
    assert len(bibtexparser.parse_string(text).entries) == 29
    Publication.objects.all().delete()
    Venue.objects.all().delete()

    result = import_bibtex(text=text)
    assert len(result.created) == 29 and result.updated == ()
    assert snapshot() == before
