"""What Google Scholar, search engines and link previews read from the seeded pages."""

import pytest

from publications.models import Publication
from tests.page_head import PageHead

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("seeded")]


def head(client, url) -> PageHead:
    response = client.get(url)
    assert response.status_code == 200
    return PageHead(response.content.decode())


def test_a_publication_page_has_highwire_tags_with_every_author_in_order(client):
    page = head(client, "/publications/klotski/")
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


def test_a_journal_article_names_its_journal(client):
    bitcuts = Publication.objects.get(title__startswith="BitCuts")
    page = head(client, bitcuts.get_absolute_url())
    assert page.named("citation_journal_title") == ["Computer Communications"]
    assert page.named("citation_conference_title") == []


def test_an_undated_paper_without_venue_has_no_date_or_venue_tags(client):
    page = head(client, "/publications/oneflow/")
    assert page.named("citation_title")
    assert page.named("citation_publication_date") == []
    assert page.named("citation_conference_title") == page.named("citation_journal_title") == []


def test_a_publication_page_has_scholarly_article_json_ld(client):
    (article,) = head(client, "/publications/mucache/").json_ld
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


def test_awards_are_in_the_json_ld(client):
    (article,) = head(client, "/publications/causalmesh/").json_ld
    assert article["award"] == ["Best Paper Award Nominee", "ACM SIGMOD Research Highlight Award"]


def test_a_profile_has_person_json_ld_without_the_email_address(client):
    response = client.get("/people/zerui-wang/")
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
    assert "@" not in str(person).replace("@context", "").replace("@type", "").replace("@id", "")


@pytest.mark.parametrize(
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
)
def test_every_page_has_a_canonical_url_and_opengraph(client, url, og_type):
    page = head(client, url)
    canonical = [link["href"] for link in page.link("canonical")]
    assert canonical == [f"http://testserver{url}"]
    assert page.named("og:url") == canonical
    assert page.named("og:type") == [og_type]
    (title,) = page.named("og:title")
    (description,) = page.named("og:description")
    assert title and description
    assert page.named("og:site_name")


def test_the_page_titles_its_preview_after_what_it_shows(client):
    assert head(client, "/people/hang-zhu/").named("og:title") == ["Hang Zhu"]
    klotski = Publication.objects.get(slug="klotski")
    page = head(client, "/publications/klotski/")
    assert page.named("og:title") == [klotski.title]
    assert page.named("og:description")[0].startswith("Yihao Zhao, Xiaoxiang Zhang, ")


def test_a_filtered_list_is_canonically_the_list(client):
    page = head(client, "/publications/?venue=NSDI&page=1")
    assert [link["href"] for link in page.link("canonical")] == ["http://testserver/publications/"]
    feeds = [link["href"] for link in page.link("alternate")]
    assert "/publications/feed/?venue=NSDI" in feeds


@pytest.mark.parametrize("url", ["/publications/klotski/", "/people/hang-zhu/", "/publications/"])
def test_no_script_on_the_page_runs_inline(client, url):
    for script in head(client, url).scripts:
        assert script.get("src") or script.get("type") == "application/ld+json"
