"""Years an old import stored outside the site's range never become options the filter refuses."""

import pytest

from publications.models import Publication
from tests.factories import make_person, make_publication

pytestmark = pytest.mark.django_db

URL = "/publications/"


def test_years_outside_the_sites_range_are_no_option_or_bar(client):
    make_publication(title="Kept", year=2024)
    for year in [0, 999]:
        stored = make_publication(title=f"Imported {year}")
        Publication.objects.filter(pk=stored.pk).update(year=year)  # as an import once did
    response = client.get(URL)
    offered = [option.year for option in response.context["year_options"]]
    assert offered == [2024]
    assert [bar.year for bar in response.context["chart"].bars] == [2024]
    for year in offered:
        chosen = client.get(URL, {"year_min": year, "year_max": year})
        assert chosen.context["ignored"] == []
        assert chosen.context["page"].paginator.count == 1


def test_authors_all_gives_the_papers_every_member_ticked_wrote_together(client):
    ada = make_person(name="Ada Lovelace", slug="ada")
    grace = make_person(name="Grace Hopper", slug="grace")
    make_publication(title="Ada alone", authors=[ada])
    make_publication(title="Grace alone", authors=[grace, "Outsider"])
    make_publication(title="Together", authors=["Outsider", grace, ada])
    both = f"{URL}?author=ada&author=grace"
    either = {p.title for p in client.get(both).context["page"].object_list}
    assert either == {"Ada alone", "Grace alone", "Together"}
    together = {p.title for p in client.get(f"{both}&authors=all").context["page"].object_list}
    assert together == {"Together"}
