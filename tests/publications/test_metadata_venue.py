"""The venue's label, written once by Venue.display_name, on the seeded pages and their data."""

import pytest

from publications.models import Venue
from tests.cases import SeededTestCase
from tests.page_head import PageHead


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


class SeededVenueLabelTests(SeededTestCase):
    def test_a_conference_page_names_the_venue_in_full_then_short(self):
        assert (
            venue_label(self.client, "/publications/causalmesh/")
            == "International Conference on Very Large Data Bases (VLDB)"
        )

    def test_a_venue_whose_full_name_is_its_short_name_is_named_once(self):
        assert venue_label(self.client, "/publications/vapo/") == "arXiv"
        assert venue_label(self.client, "/publications/bitcuts/") == "Computer Communications"
        html = self.client.get("/publications/vapo/").content.decode()
        assert "arXiv (arXiv)" not in html

    def test_the_json_ld_gives_the_short_name_only_when_it_differs(self):
        (arxiv,) = PageHead(self.client.get("/publications/vapo/").content.decode()).json_ld
        assert arxiv["isPartOf"] == {"@type": "CreativeWork", "name": "arXiv"}
        (vldb,) = PageHead(self.client.get("/publications/causalmesh/").content.decode()).json_ld
        assert vldb["isPartOf"]["name"] == "International Conference on Very Large Data Bases"
        assert vldb["isPartOf"]["alternateName"] == "VLDB"

    def test_the_bibtex_uses_the_same_label_as_the_page(self):
        assert (
            "howpublished = {{arXiv}}" in self.client.get("/publications/vapo.bib").content.decode()
        )
        bib = self.client.get("/publications/causalmesh.bib").content.decode()
        assert "booktitle = {{International Conference on Very Large Data Bases (VLDB)}}" in bib
