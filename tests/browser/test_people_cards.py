"""People as a visitor sees them: round portraits of 96 to 128 px, five or six to a row on a
wide screen, sharp on a high-density screen (the browser picks the 2x rendition), and quiet
placeholders for people without a photo."""

import pytest

from tests.browser.conftest import shell

PHOTO = """
import io
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image
from people.models import Person
from people.photos import clean_photo, save_photo
buffer = io.BytesIO()
Image.new("RGB", (900, 900), "#3a6ea5").save(buffer, format="JPEG")
person = Person.objects.get(slug="hang-zhu")
person.photo_alt = "Hang Zhu in front of a blue wall"
upload = SimpleUploadedFile("hang.jpg", buffer.getvalue(), content_type="image/jpeg")
save_photo(person=person, photo=clean_photo(upload=upload))
"""
NO_PHOTO = """
from people.models import Person
from people.photos import save_photo
save_photo(person=Person.objects.get(slug="hang-zhu"), photo=None)
"""


@pytest.fixture(scope="module")
def photo(site_url, server_environment):
    """Hang Zhu with a photo for this module's tests, without one again after them."""
    shell(server_environment, PHOTO)
    yield
    shell(server_environment, NO_PHOTO)


def portraits(browser, site_url, *, width: int, scale: float = 1) -> list[dict]:
    context = browser.new_context(
        viewport={"width": width, "height": 900}, device_scale_factor=scale, base_url=site_url
    )
    page = context.new_page()
    page.goto("/people/")
    # Portraits load lazily: wait until each photo has picked its source and loaded.
    page.wait_for_function(
        "() => [...document.querySelectorAll('img.avatar')].every(i => i.complete && i.currentSrc)"
    )
    measured = page.eval_on_selector_all(
        ".person-card",
        """cards => cards.map(card => {
          const portrait = card.querySelector(".avatar");
          const box = portrait.getBoundingClientRect();
          const list = card.parentElement.getBoundingClientRect();
          return {
            width: box.width, height: box.height,
            radius: getComputedStyle(portrait).borderRadius,
            card: card.getBoundingClientRect().width, list: list.width,
            source: portrait.currentSrc || "",
          };
        })""",
    )
    context.close()
    return measured


def test_people_cards_are_round_portraits_five_or_six_to_a_row_at_1440_px(browser, site_url):
    cards = portraits(browser, site_url, width=1440)
    assert cards
    for card in cards:
        assert 96 <= card["width"] <= 128 and card["width"] == card["height"], card
        assert card["radius"] == "50%", card
        # The row's room: how many cards of this width the list holds side by side.
        per_row = int((card["list"] + 24) // (card["card"] + 24))
        assert 4 <= per_row <= 6, card


def test_a_high_density_screen_gets_the_2x_portrait(browser, site_url, photo):
    cards = portraits(browser, site_url, width=1440, scale=2)
    sources = [card["source"] for card in cards if card["source"]]
    assert len(sources) == 1
    # The card shows its portrait at 112 CSS px: 224 device pixels at 2x.
    assert "-224." in sources[0], sources
    single = [card["source"] for card in portraits(browser, site_url, width=1440) if card["source"]]
    assert "-112." in single[0], single
