"""Page metadata built from rows made here: escaping, PDF links, DOIs and photos."""

import pytest

from publications.models import PublicationLink
from tests.factories import make_person, make_publication, make_venue
from tests.page_head import PageHead

pytestmark = pytest.mark.django_db

HOSTILE = 'Breaking </script><script>alert("x")</script> & <!-- out'


def test_json_ld_cannot_be_closed_early_by_a_title(client):
    publication = make_publication(title=HOSTILE, authors=["A </script> Author"])
    html = client.get(publication.get_absolute_url()).content.decode()
    assert '<script>alert("x")' not in html
    (article,) = PageHead(html).json_ld
    assert article["headline"] == HOSTILE
    assert article["author"][0]["name"] == "A </script> Author"


def test_a_pdf_link_and_a_doi_are_announced_to_indexers(client):
    venue = make_venue(short_name="JOT", full_name="Journal of Tests", kind="journal")
    publication = make_publication(title="With Files", venue=venue, doi="10.1000/xyz")
    PublicationLink.objects.create(
        publication=publication, position=1, kind="code", url="https://example.org/code"
    )
    PublicationLink.objects.create(
        publication=publication, position=2, kind="pdf", url="https://example.org/paper.pdf"
    )
    page = PageHead(client.get(publication.get_absolute_url()).content.decode())
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


def test_a_profile_photo_is_the_preview_image(client):
    person = make_person(photo="people/portrait.jpg", photo_alt="Smiling, in a lab coat")
    page = PageHead(client.get(person.get_absolute_url()).content.decode())
    photo = "http://testserver/media/people/portrait.jpg"
    assert page.named("og:image") == [photo]
    assert page.named("og:image:alt") == ["Smiling, in a lab coat"]
    (data,) = page.json_ld
    assert data["image"] == photo


def test_an_unpublished_member_is_not_linked_from_the_json_ld(client):
    hidden = make_person(name="Hidden Member", is_published=False)
    publication = make_publication(authors=[hidden])
    (article,) = PageHead(client.get(publication.get_absolute_url()).content.decode()).json_ld
    assert article["author"] == [{"@type": "Person", "name": "Hidden Member"}]
