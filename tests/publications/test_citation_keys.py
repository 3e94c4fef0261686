"""Citation keys are stored on the paper: read with its row, kept when other papers change."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from publications.citation_keys import citation_keys, keys_in_order
from publications.models import Authorship, Publication
from tests.factories import make_publication

pytestmark = pytest.mark.django_db


def listed(*publications: Publication) -> list[Publication]:
    """As the pages and exports pass them: authorships prefetched."""
    by_pk = Publication.objects.for_listing().in_bulk([p.pk for p in publications])
    return [by_pk[publication.pk] for publication in publications]


def key_of(publication: Publication) -> str:
    publication.refresh_from_db(fields=["citation_key"])
    return publication.citation_key


def test_keys_are_read_with_the_rows_without_a_query():
    make_publication(title="Klotski", year=2023, authors=["Ann Zhao"])
    papers = listed(*[make_publication(title="Klotski", year=2023, authors=["Yihao Zhao"])])
    with CaptureQueriesContext(connection) as queries:
        assert citation_keys(papers) == {papers[0].pk: "zhao2023klotskib"}
    assert len(queries) == 0


def test_a_clash_is_found_however_the_earlier_name_is_written():
    zhao = make_publication(title="Klotski", year=2023, authors=["Zhao, Bo"])
    nunez = make_publication(title="Caching", year=2023, authors=["José Núñez"], is_published=False)
    slow = make_publication(title="Ring", year=2023, authors=["Ludwig van Beethoven"])
    later = [
        make_publication(title="The Klotski Way", year=2023, authors=["YIHAO ZHAO"]),
        make_publication(title="On Caching", year=2023, authors=["Ana Nunez"]),
        make_publication(title="Ring Two", year=2023, authors=["Beethoven, L."]),
    ]
    assert {key_of(paper) for paper in later} == {
        "zhao2023klotskib",
        "nunez2023cachingb",
        "beethoven2023ringb",
    }
    assert {key_of(paper) for paper in (zhao, nunez, slow)} == {
        "zhao2023klotski",
        "nunez2023caching",
        "beethoven2023ring",
    }


def test_a_key_follows_its_papers_first_author_title_and_year():
    paper = make_publication(title="Klotski", year=2023, authors=["Hang Zhu", "Bo Zhao"])
    assert key_of(paper) == "zhu2023klotski"

    Authorship.objects.get(publication=paper, position=1).delete()
    assert key_of(paper) == "zhao2023klotski"  # the first author left: the next is first
    Authorship.objects.create(publication=paper, position=0, name="Ann Lee")
    assert key_of(paper) == "lee2023klotski"

    paper.title, paper.year = "The Ring", 2024
    paper.save()
    assert key_of(paper) == "lee2024ring"


def test_a_key_does_not_change_when_another_paper_takes_or_leaves_its_base():
    first = make_publication(title="Klotski", year=2023, authors=["Hang Zhu"])
    second = make_publication(title="Klotski", year=2023, authors=["Hang Zhu"])
    assert (key_of(first), key_of(second)) == ("zhu2023klotski", "zhu2023klotskib")

    first.title = "Ring"
    first.save()
    third = make_publication(title="Klotski", year=2023, authors=["Hang Zhu"])
    assert key_of(second) == "zhu2023klotskib"
    # The first free letter: the plain key, which the retitled paper left.
    assert key_of(third) == "zhu2023klotski"
    second.save()
    assert key_of(second) == "zhu2023klotskib"


def test_keys_in_order_give_each_paper_the_first_free_letter():
    taken = {"zhu2023klotski"}
    rows = [("Hang Zhu", 2023, "Klotski"), ("H. Zhu", 2023, "Klotski"), ("", None, "A Cache")]
    assert list(keys_in_order(rows, taken=taken)) == [
        "zhu2023klotskib",
        "zhu2023klotskic",
        "anoncache",
    ]


def test_a_page_gives_the_same_key_as_an_export_of_the_whole_list():
    """Keys are stored on the rows: a page showing one paper and an export of all of them read
    the same key, distinct for every paper."""
    names = ["Yihao Zhao", "Zhao, Bo", "José Núñez", "Jose Nunez", "张伟", "", "Anon", "Z. Hao"]
    for number in range(60):
        authors = [names[number % len(names)]] if names[number % len(names)] else []
        make_publication(
            title=f"{'Klotski' if number % 3 else 'A Cache'}",
            year=2020 + number % 2,
            authors=authors,
            slug=f"paper-x{number}",
        )
    papers = list(Publication.objects.for_listing())
    whole = citation_keys(papers)
    assert len(set(whole.values())) == len(papers)
    assert {pk: key for paper in papers for pk, key in citation_keys([paper]).items()} == whole
