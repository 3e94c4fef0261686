import pytest

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("seeded")]


def test_publication_page_shows_authors_venue_awards_and_related_work(client):
    response = client.get("/publications/causalmesh/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "CausalMesh: A Causal Cache for Stateful Serverless Computing" in html
    assert "Shuai Mu, Sebastian Angel, Vincent Liu" in html
    assert "International Conference on Very Large Data Bases (VLDB)" in html
    assert "Best Paper Award Nominee" in html and "ACM SIGMOD Research Highlight Award" in html
    related = {publication.slug for publication in response.context["related"]}
    assert len(related) == 7 and "causalmesh" not in related
    assert "More by Haoran Zhang" in html


def test_equal_contribution_is_explained_on_the_page(client):
    html = client.get("/publications/mucache/").content.decode()
    assert 'Haoran Zhang</a><abbr class="equal" title="Equal contribution">*</abbr>' in html
    assert "Equal contribution." in html


def test_undated_preprint_without_venue_shows_no_empty_field_or_separator(client):
    html = client.get("/publications/oneflow/").content.decode()
    assert "Not given" not in html and "<dt>Year</dt>" not in html
    assert '<p class="eyebrow">Preprint</p>' in html


def test_unknown_publication_is_a_404(client):
    assert client.get("/publications/no-such-paper/").status_code == 404
