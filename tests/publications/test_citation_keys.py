"""Citation keys read only the papers that could share one, not every paper of the year."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from publications import citation_keys as keys_module
from publications.citation_keys import citation_keys
from publications.models import Publication
from tests.factories import make_publication

pytestmark = pytest.mark.django_db


def listed(*publications: Publication) -> list[Publication]:
    """As the pages and exports pass them: authorships prefetched."""
    by_pk = Publication.objects.for_listing().in_bulk([p.pk for p in publications])
    return [by_pk[publication.pk] for publication in publications]


@pytest.fixture
def parsed_names(monkeypatch) -> list[str]:
    """The first authors whose names citation_keys parses."""
    names = []
    real = keys_module.base_citation_key

    def spy(*, first_author, year, title):
        names.append(first_author)
        return real(first_author=first_author, year=year, title=title)

    monkeypatch.setattr(keys_module, "base_citation_key", spy)
    return names


def test_one_papers_key_reads_only_the_papers_whose_first_author_could_share_it(parsed_names):
    make_publication(title="Klotski", year=2023, authors=["Ann Zhao"])
    for number in range(50):
        make_publication(title="Klotski", year=2023, authors=[f"Bea Smith{number}", "Yihao Zhao"])
    (paper,) = listed(make_publication(title="Klotski", year=2023, authors=["Yihao Zhao"]))
    with CaptureQueriesContext(connection) as queries:
        assert citation_keys([paper]) == {paper.pk: "zhao2023klotskib"}
    assert len(queries) == 1
    # The paper's own name once to know its key, then the two rows the query returned.
    assert parsed_names == ["Yihao Zhao", "Ann Zhao", "Yihao Zhao"]


def test_a_clash_is_found_however_the_earlier_name_is_written():
    zhao = make_publication(title="Klotski", year=2023, authors=["Zhao, Bo"])
    nunez = make_publication(title="Caching", year=2023, authors=["José Núñez"], is_published=False)
    slow = make_publication(title="Ring", year=2023, authors=["Ludwig van Beethoven"])
    later = [
        make_publication(title="The Klotski Way", year=2023, authors=["YIHAO ZHAO"]),
        make_publication(title="On Caching", year=2023, authors=["Ana Nunez"]),
        make_publication(title="Ring Two", year=2023, authors=["Beethoven, L."]),
    ]
    keys = {key for paper in listed(*later) for key in citation_keys([paper]).values()}
    assert keys == {"zhao2023klotskib", "nunez2023cachingb", "beethoven2023ringb"}
    earlier = {
        key for paper in listed(zhao, nunez, slow) for key in citation_keys([paper]).values()
    }
    assert earlier == {"zhao2023klotski", "nunez2023caching", "beethoven2023ring"}


def test_a_page_gives_the_same_key_as_an_export_of_the_whole_list():
    """An export of more than MAX_NARROWED_KEYS papers reads the years whole: same keys."""
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
    assert len(papers) > keys_module.MAX_NARROWED_KEYS
    whole = citation_keys(papers)
    assert len(set(whole.values())) == len(papers)
    assert {pk: key for paper in papers for pk, key in citation_keys([paper]).items()} == whole


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
