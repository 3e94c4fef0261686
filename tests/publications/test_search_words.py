"""Search reads words as people type them (issue 23, items 7 and 9): case and accents folded on
every database, "quoted phrases" as phrases, a name as a name. The same on SQLite and
PostgreSQL: nothing here depends on the database's own folding."""

import pytest

from tests.factories import make_publication

pytestmark = pytest.mark.django_db


def found(client, words: str) -> set[str]:
    response = client.get("/publications/", {"q": words})
    assert response.status_code == 200
    return {publication.title for publication in response.context["page"].object_list}


def found_by_api(client, words: str) -> set[str]:
    response = client.get("/api/publications/", {"q": words})
    assert response.status_code == 200
    return {paper["title"] for paper in response.json()["results"]}


@pytest.mark.parametrize("words", ["über", "uber", "UBER"])
def test_a_word_finds_its_title_whatever_its_case_and_accents(client, words):
    make_publication(title="Über Caches", authors=["Ann Lee"])
    make_publication(title="Unrelated", authors=["Ann Lee"])
    assert found(client, words) == {"Über Caches"}
    assert found_by_api(client, words) == {"Über Caches"}


@pytest.mark.parametrize("words", ["cafe", "CAFÉ"])
def test_an_accented_title_word_is_found_without_its_accent_and_in_capitals(client, words):
    make_publication(title="A café for packets", authors=["Ann Lee"])
    assert found(client, words) == {"A café for packets"}


@pytest.mark.parametrize("words", ["nunez", "NÚÑEZ"])
def test_an_accented_author_name_is_found_folded(client, words):
    make_publication(title="Packets", authors=["José Núñez"])
    assert found(client, words) == {"Packets"}


def test_a_quoted_phrase_finds_only_papers_with_those_words_in_a_row(client):
    make_publication(title="Fast load balancing for racks", authors=["Ann Lee"])
    make_publication(title="Balancing the load of racks", authors=["Ann Lee"])
    assert found(client, '"load balancing"') == {"Fast load balancing for racks"}
    assert found(client, '"Load  Balancing" racks') == {"Fast load balancing for racks"}
    assert found_by_api(client, '"load balancing"') == {"Fast load balancing for racks"}


def test_a_full_name_matches_one_author_not_two_different_ones(client):
    make_publication(title="A survey", authors=["Xin Li", "Wei Jin"])
    make_publication(title="Network telemetry", authors=["Xin Jin", "Ann Lee"])
    make_publication(title="Xin scheduling", authors=["Wei Jin"])
    make_publication(title="Racksched", authors=["Jack Kaffes", "Hang Zhu"])
    # A title's word next to a name's still counts: only two names' words must be one name.
    assert found(client, "Xin Jin") == {"Network telemetry", "Xin scheduling"}
    assert found(client, "Jin Xin") == {"Network telemetry", "Xin scheduling"}
    # Words that no author has as a name still find co-authors.
    assert found(client, "Kaffes Zhu") == {"Racksched"}
