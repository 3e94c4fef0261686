"""A publication's page names its authors' ORCID iDs in its JSON-LD, a member's and an external
person's alike (`identifier` and `sameAs`), so a harvester can tell them from namesakes."""

from people.models import Person
from publications.models import Publication
from tests.cases import SeededTestCase
from tests.department import add_groups_to_seed
from tests.page_head import PageHead


def authors_json_ld(client, publication: Publication) -> dict[str, dict]:
    head = PageHead(client.get(publication.get_absolute_url()).content.decode())
    (article,) = [data for data in head.json_ld if data["@type"] == "ScholarlyArticle"]
    return {author["name"]: author for author in article["author"]}


class SeededAuthorOrcidTests(SeededTestCase):
    """Hang Zhu's profile and Xin Jin's record (outside the lab) have ORCID iDs."""

    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        add_groups_to_seed()
        cls.paper = (
            Publication.objects.published()
            .filter(authorships__researcher__slug="hang-zhu")
            .filter(authorships__researcher__slug="xin-jin")
            .first()
        )

    def test_a_member_and_an_external_author_carry_their_orcid_ids(self):
        assert self.paper is not None, "the seed has a paper by both"
        authors = authors_json_ld(self.client, self.paper)
        assert authors["Hang Zhu"] == {
            "@type": "Person",
            "name": "Hang Zhu",
            "url": "http://testserver/people/hang-zhu/",
            "identifier": {
                "@type": "PropertyValue",
                "propertyID": "ORCID",
                "value": "0000-0002-1825-0097",
            },
            "sameAs": "https://orcid.org/0000-0002-1825-0097",
        }
        xin_jin = authors[self.paper.authorships.get(researcher__slug="xin-jin").name]
        assert xin_jin["identifier"]["value"] == "0000-0001-5109-3700"
        assert xin_jin["sameAs"] == "https://orcid.org/0000-0001-5109-3700"
        assert "url" not in xin_jin
        others = [
            author for name, author in authors.items() if name not in ("Hang Zhu", xin_jin["name"])
        ]
        assert others and not any("identifier" in author for author in others)

    def test_a_draft_members_orcid_id_stays_out(self):
        Person.objects.filter(slug="hang-zhu").update(is_published=False)
        assert authors_json_ld(self.client, self.paper)["Hang Zhu"] == {
            "@type": "Person",
            "name": "Hang Zhu",
        }
