"""The venue's label, written once by Venue.display_name, on the seeded pages and their data."""

import pytest

from publications.models import Venue
from tests.page_head import PageHead

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("seeded")]


@pytest.mark.parametrize(
    ("short_name", "full_name", "label"),
    [
        ("NSDI", "Networked Systems Design", "Networked Systems Design (NSDI)"),
        ("arXiv", "arXiv", "arXiv"),
        ("HotNets", "", "HotNets"),
    ],
)
def test_a_venue_adds_its_short_name_only_when_the_full_name_differs(short_name, full_name, label):
    assert Venue(short_name=short_name, full_name=full_name).display_name == label


def venue_label(client, url: str) -> str:
    html = client.get(url).content.decode()
    return html.split("<dt>Venue</dt><dd>", 1)[1].split("</dd>", 1)[0]


def test_a_conference_page_names_the_venue_in_full_then_short(client):
    assert (
        venue_label(client, "/publications/causalmesh/")
        == "International Conference on Very Large Data Bases (VLDB)"
    )


def test_a_venue_whose_full_name_is_its_short_name_is_named_once(client):
    assert venue_label(client, "/publications/vapo/") == "arXiv"
    assert venue_label(client, "/publications/bitcuts/") == "Computer Communications"
    html = client.get("/publications/vapo/").content.decode()
    assert "arXiv (arXiv)" not in html


def test_the_json_ld_gives_the_short_name_only_when_it_differs(client):
    (arxiv,) = PageHead(client.get("/publications/vapo/").content.decode()).json_ld
    assert arxiv["isPartOf"] == {"@type": "CreativeWork", "name": "arXiv"}
    (vldb,) = PageHead(client.get("/publications/causalmesh/").content.decode()).json_ld
    assert vldb["isPartOf"]["name"] == "International Conference on Very Large Data Bases"
    assert vldb["isPartOf"]["alternateName"] == "VLDB"


def test_the_bibtex_uses_the_same_label_as_the_page(client):
    assert "howpublished = {arXiv}" in client.get("/publications/vapo.bib").content.decode()
    bib = client.get("/publications/causalmesh.bib").content.decode()
    assert "booktitle = {International Conference on Very Large Data Bases (VLDB)}" in bib
