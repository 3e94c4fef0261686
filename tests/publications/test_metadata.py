"""What Google Scholar, search engines and link previews read from the pages: of the seeded
papers and people; and, on rows built here, escaping, PDF links, DOIs and photos."""

from django.test import TestCase

from publications.models import Publication, PublicationLink
from tests.cases import SeededTestCase, parametrize
from tests.factories import make_person, make_publication, make_venue
from tests.page_head import PageHead

HOSTILE = 'Breaking </script><script>alert("x")</script> & <!-- out'


def head(client, url) -> PageHead:
    response = client.get(url)
    assert response.status_code == 200
    return PageHead(response.content.decode())


class SeededMetadataTests(SeededTestCase):
    def test_a_publication_page_has_highwire_tags_with_every_author_in_order(self):
        page = head(self.client, "/publications/klotski/")
        klotski = Publication.objects.get(slug="klotski")
        assert page.named("citation_title") == [klotski.title]
        assert page.named("citation_author") == [
            authorship.name for authorship in klotski.authorships.order_by("position")
        ]
        assert len(page.named("citation_author")) == klotski.authorships.count() > 5
        assert page.named("citation_publication_date") == ["2023"]
        assert page.named("citation_conference_title") == [
            "ACM Special Interest Group on Data Communication Conference"
        ]
        assert page.named("citation_journal_title") == []
        assert page.named("citation_pdf_url") == []  # the fixtures have no PDF links

    def test_a_journal_article_names_its_journal(self):
        bitcuts = Publication.objects.get(title__startswith="BitCuts")
        page = head(self.client, bitcuts.get_absolute_url())
        assert page.named("citation_journal_title") == ["Computer Communications"]
        assert page.named("citation_conference_title") == []

    def test_an_undated_paper_without_venue_has_no_date_or_venue_tags(self):
        page = head(self.client, "/publications/oneflow/")
        assert page.named("citation_title")
        assert page.named("citation_publication_date") == []
        assert page.named("citation_conference_title") == page.named("citation_journal_title") == []

    def test_a_publication_page_has_scholarly_article_json_ld(self):
        (article,) = head(self.client, "/publications/mucache/").json_ld
        mucache = Publication.objects.get(slug="mucache")
        assert article["@context"] == "https://schema.org"
        assert article["@type"] == "ScholarlyArticle"
        assert article["headline"] == mucache.title
        assert article["url"] == "http://testserver/publications/mucache/"
        assert [author["name"] for author in article["author"]] == [
            authorship.name for authorship in mucache.authorships.order_by("position")
        ]
        assert article["author"][0] == {
            "@type": "Person",
            "name": "Haoran Zhang",
            "url": "http://testserver/people/haoran-zhang/",
        }
        assert "url" not in article["author"][1]  # not a lab member
        assert article["datePublished"] == "2024"
        assert article["isPartOf"]["alternateName"] == "NSDI"

    def test_awards_are_in_the_json_ld(self):
        (article,) = head(self.client, "/publications/causalmesh/").json_ld
        assert article["award"] == [
            "Best Paper Award Nominee",
            "ACM SIGMOD Research Highlight Award",
        ]

    def test_a_profile_has_person_json_ld_without_the_email_address(self):
        response = self.client.get("/people/zerui-wang/")
        (person,) = PageHead(response.content.decode()).json_ld
        assert person["@type"] == "Person"
        assert person["name"] == "Zerui Wang"
        assert person["url"] == "http://testserver/people/zerui-wang/"
        assert person["jobTitle"] == "Ph.D. Student"
        assert [org["name"] for org in person["affiliation"]] == [
            "Shanghai Jiao Tong University",
            "NVIDIA Research",
        ]
        assert "email" not in person
        assert "@" not in str(person).replace("@context", "").replace("@type", "").replace(
            "@id", ""
        )

    @parametrize(
        ("url", "og_type"),
        [
            ("/", "website"),
            ("/people/", "website"),
            ("/people/hang-zhu/", "profile"),
            ("/publications/", "website"),
            ("/publications/klotski/", "article"),
            ("/news/", "website"),
            ("/news/linear-attention-visualized/", "article"),
        ],
        ids=["home", "directory", "profile", "list", "publication", "news", "news_item"],
    )
    def test_every_page_has_a_canonical_url_and_opengraph(self, url, og_type):
        page = head(self.client, url)
        canonical = [link["href"] for link in page.link("canonical")]
        assert canonical == [f"http://testserver{url}"]
        assert page.named("og:url") == canonical
        assert page.named("og:type") == [og_type]
        (title,) = page.named("og:title")
        (description,) = page.named("og:description")
        assert title and description
        assert page.named("og:site_name")

    def test_the_page_titles_its_preview_after_what_it_shows(self):
        assert head(self.client, "/people/hang-zhu/").named("og:title") == ["Hang Zhu"]
        klotski = Publication.objects.get(slug="klotski")
        page = head(self.client, "/publications/klotski/")
        assert page.named("og:title") == [klotski.title]
        assert page.named("og:description")[0].startswith("Yihao Zhao, Xiaoxiang Zhang, ")

    def test_a_filtered_list_is_canonically_the_list(self):
        page = head(self.client, "/publications/?venue=NSDI&page=1")
        assert [link["href"] for link in page.link("canonical")] == [
            "http://testserver/publications/"
        ]
        feeds = [link["href"] for link in page.link("alternate")]
        assert "/publications/feed/?venue=NSDI" in feeds

    @parametrize(
        "url",
        ["/publications/klotski/", "/people/hang-zhu/", "/publications/"],
        ids=["publication", "profile", "list"],
    )
    def test_no_script_on_the_page_runs_inline(self, url):
        for script in head(self.client, url).scripts:
            assert script.get("src") or script.get("type") == "application/ld+json"


class MetadataRowsTests(TestCase):
    """On rows each test builds."""

    def test_json_ld_cannot_be_closed_early_by_a_title(self):
        publication = make_publication(title=HOSTILE, authors=["A </script> Author"])
        html = self.client.get(publication.get_absolute_url()).content.decode()
        assert '<script>alert("x")' not in html
        (article,) = PageHead(html).json_ld
        assert article["headline"] == HOSTILE
        assert article["author"][0]["name"] == "A </script> Author"

    def test_a_pdf_link_and_a_doi_are_announced_to_indexers(self):
        venue = make_venue(short_name="JOT", full_name="Journal of Tests", kind="journal")
        publication = make_publication(title="With Files", venue=venue, doi="10.1000/xyz")
        PublicationLink.objects.create(
            publication=publication, position=1, kind="code", url="https://example.org/code"
        )
        PublicationLink.objects.create(
            publication=publication, position=2, kind="pdf", url="https://example.org/paper.pdf"
        )
        page = head(self.client, publication.get_absolute_url())
        assert page.named("citation_pdf_url") == ["https://example.org/paper.pdf"]
        assert page.named("citation_doi") == ["10.1000/xyz"]
        assert page.named("citation_journal_title") == ["Journal of Tests"]
        (article,) = page.json_ld
        assert article["encoding"]["contentUrl"] == "https://example.org/paper.pdf"
        assert article["sameAs"] == "https://doi.org/10.1000/xyz"
        assert article["isPartOf"] == {
            "@type": "Periodical",
            "name": "Journal of Tests",
            "alternateName": "JOT",
        }

    def test_a_profile_photo_is_the_preview_image(self):
        person = make_person(photo="people/portrait.jpg", photo_alt="Smiling, in a lab coat")
        page = head(self.client, person.get_absolute_url())
        photo = "http://testserver/media/people/portrait.jpg"
        assert page.named("og:image") == [photo]
        assert page.named("og:image:alt") == ["Smiling, in a lab coat"]
        (data,) = page.json_ld
        assert data["image"] == photo

    def test_an_unpublished_member_is_not_linked_from_the_json_ld(self):
        hidden = make_person(name="Hidden Member", is_published=False)
        publication = make_publication(authors=[hidden])
        (article,) = head(self.client, publication.get_absolute_url()).json_ld
        assert article["author"] == [{"@type": "Person", "name": "Hidden Member"}]
