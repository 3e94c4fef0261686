"""/search/: one box for people, publications and news, by word starts, grouped by kind."""

import pytest

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("seeded")]


def found(response) -> dict[str, list[str]]:
    return {group.kind: [str(row) for row in group.first] for group in response.context["groups"]}


def test_a_first_name_finds_that_person_and_not_a_name_that_contains_it(client):
    response = client.get("/search/", {"q": "Hang"})
    assert found(response)["people"] == ["Hang Zhu"]
    publications = response.context["groups"][1].queryset
    assert publications.count() >= 12  # Hang Zhu's twelve, and papers by another Hang
    for publication in publications:
        words = publication.title.split() + [
            word for author in publication.authorships.all() for word in author.name.split()
        ]
        assert any(word.lower().startswith("hang") for word in words), publication.title


def test_results_are_grouped_by_kind_with_a_link_to_each_list(client):
    response = client.get("/search/", {"q": "jet-long"})
    html = response.content.decode()
    assert [group.kind for group in response.context["groups"]] == [
        "people",
        "publications",
        "news",
    ]
    assert found(response)["news"] == [
        "Our Jet-Long preprint and code are available.",
        "Jet-Long has been accepted to NeurIPS 2026.",
    ]
    assert (
        "Jet-Long: Efficient Long-Context Extension with Dynamic Bifocal RoPE"
        in found(response)["publications"]
    )
    assert 'href="/news/?q=jet-long"' in html
    assert 'href="/publications/?q=jet-long"' in html
    assert "No people match." in html


def test_the_lists_find_what_the_search_counts(client):
    groups = {g.kind: g.count for g in client.get("/search/", {"q": "zhang"}).context["groups"]}
    assert groups["people"] == len(client.get("/people/", {"q": "zhang"}).context["current"])
    listed = client.get("/publications/", {"q": "zhang"}).context["page"].paginator.count
    assert groups["publications"] == listed


@pytest.mark.parametrize("query", ["", "   "])
def test_an_empty_search_asks_for_words(client, query):
    response = client.get("/search/", {"q": query})
    assert response.status_code == 200
    assert response.context["groups"] == []


def test_a_search_too_long_is_refused_plainly(client):
    response = client.get("/search/", {"q": " ".join(["word"] * 20)})
    assert response.status_code == 200
    assert "Search with at most 12 words." in response.content.decode()
