"""A paper's citation key, search text and co-author pairs are made from its title, year and
authors: every write of those, bulk ones included, makes them again, and a save of a paper with
many authors makes them once, not once an author row (publications/derived.py)."""

from unittest import mock

import pytest
from django.core.management import call_command
from django.urls import reverse

from config.management.commands.seed import FIXTURES
from publications.citation_keys import base_citation_key
from publications.models import Authorship, CoauthorPairQuerySet, Publication
from publications.search import search_text_of
from tests.admin_forms import new_publication_form
from tests.factories import make_person, make_publication

pytestmark = pytest.mark.django_db


def assert_made_from_its_rows(paper: Publication, when: str = "") -> None:
    paper.refresh_from_db()
    names = list(paper.authorships.order_by("position").values_list("name", flat=True))
    assert paper.search_text == search_text_of(title=paper.title, authors=names), when
    first = names[0] if names else ""
    key = base_citation_key(first_author=first, year=paper.year, title=paper.title)
    assert paper.citation_key == key, when


def test_bulk_writes_of_titles_and_author_names_make_the_key_and_search_text_again():
    paper = make_publication(title="Klotski", year=2020, authors=["Hang Zhu", "Ada Lovelace"])
    assert paper.citation_key == "zhu2020klotski"
    writes = [
        lambda: Publication.objects.filter(pk=paper.pk).update(title="Quokka Routing"),
        lambda: Publication.objects.filter(pk=paper.pk).update(year=2021),
        lambda: Authorship.objects.filter(publication=paper, position=1).update(name="Wen Li"),
        # The admin moves authors of a long list by UPDATEs.
        lambda: Authorship.objects.filter(publication=paper, position=1).update(position=7),
        lambda: Authorship.objects.bulk_update(
            [renamed(paper.authorships.get(name="Ada Lovelace"), "Grace Hopper")], ["name"]
        ),
        lambda: Authorship.objects.bulk_create(
            [Authorship(publication=paper, position=1, name="Alan Turing")]
        ),
    ]
    for number, write in enumerate(writes):
        write()
        assert_made_from_its_rows(paper, f"after write {number}")
    assert paper.citation_key == "turing2021quokka"
    assert "alan turing" in paper.search_text


def pairs_counted():
    """Co-author pairs made as before, each call of their making counted (the mock's calls)."""
    refresh = CoauthorPairQuerySet.refresh
    return mock.patch.object(CoauthorPairQuerySet, "refresh", autospec=True, side_effect=refresh)


def renamed(row: Authorship, name: str) -> Authorship:
    row.name = name
    return row


def test_saving_a_paper_with_forty_authors_in_the_admin_makes_its_rows_once(editor_client):
    member = make_person(name="Hang Zhu")
    data = new_publication_form(title="Klotski", slug="klotski", year="2020")
    data["authorships-TOTAL_FORMS"] = "40"
    for number in range(40):
        data[f"authorships-{number}-position"] = str(number + 1)
        data[f"authorships-{number}-name"] = "Hang Zhu" if number == 0 else f"Author {number}"
        if number == 0:
            data[f"authorships-{number}-person"] = str(member.pk)
    with pairs_counted() as pairs_made:
        response = editor_client.post(reverse("admin:publications_publication_add"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    paper = Publication.objects.get(slug="klotski")
    assert paper.authorships.count() == 40
    assert pairs_made.call_count == 1
    assert_made_from_its_rows(paper)
    assert paper.citation_key == "zhu2020klotski"


def test_loading_the_seeds_fixtures_makes_each_papers_rows_once_and_as_from_its_rows():
    """loaddata (the seed, every seeded test class) saves a paper, then each of its author
    rows: the papers' rows are made once, at the end of the load (publications' loaddata)."""
    with pairs_counted() as pairs_made:
        call_command("loaddata", *FIXTURES, verbosity=0)
    papers = Publication.objects.all()
    assert pairs_made.call_count == 1
    assert set(pairs_made.call_args.args[1]) == {paper.pk for paper in papers}
    for paper in papers:
        assert_made_from_its_rows(paper, paper.slug)
