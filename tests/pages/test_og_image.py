"""Every page gives link previews an image: the person's photo on a profile that has one, else
the lab's logo as a PNG (the previews of chat apps and social sites do not show SVG)."""

import pytest

from tests.factories import make_news, make_person, make_publication
from tests.page_head import PageHead


@pytest.mark.django_db
def test_every_kind_of_page_without_a_photo_previews_with_the_lab_logo(client):
    person = make_person()
    pages = [
        "/",
        "/publications/",
        "/people/",
        make_publication(authors=[person]).get_absolute_url(),
        make_news().get_absolute_url(),
        person.get_absolute_url(),
    ]
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        head = PageHead(response.content.decode())
        (image,) = head.named("og:image")
        assert image.startswith("http://testserver/static/img/og-image"), url
        assert image.endswith(".png"), url
        assert head.named("og:image:alt"), url
