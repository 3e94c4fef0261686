"""Issue 26, pictures and the directory: a news item's picture, a paper's teaser and a group's
picture as a visitor sees them (sharp at 2x, beside the text and never pushing it out of its
column), the directory as one flowing grid, and the API docs in their own dark colours, at 390
and 1440 px, light and dark: axe finds nothing and the Nu HTML checker no error.

The newest paper, the newest news item with a page and the module's research group get a
picture for this module's tests; the pictures are taken away after its last test."""

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from tests.browser.conftest import VIEWPORTS, shell

SCHEMES = ["light", "dark"]
COMBINATIONS = [(viewport, scheme) for viewport in VIEWPORTS for scheme in SCHEMES]
PICTURES = """
import io
from django.core.files.uploadedfile import SimpleUploadedFile
from PIL import Image, ImageDraw
from base.illustrations import clean_illustration, save_with_image
from news.models import NewsItem
from people.models import ResearchGroup
from publications.models import Publication

def picture(colour):
    image = Image.new("RGB", (1200, 800), colour)
    ImageDraw.Draw(image).ellipse((300, 150, 900, 650), fill="#f2c14e")
    buffer = io.BytesIO()
    image.save(buffer, format="JPEG")
    return SimpleUploadedFile("picture.jpg", buffer.getvalue(), content_type="image/jpeg")

# The seed's news items have no body, so no page a list links to: the newest gets one.
story = NewsItem.objects.published().first()
story.body = STORY
rows = [
    (Publication.objects.published().first(), "#2f6f8f", "A diagram of the system"),
    (story, "#7a4f9a", "The team on stage"),
    (ResearchGroup.objects.get(slug="ml-systems"), "#3c7a4a", "The group's machines"),
]
for row, colour, alt in rows:
    row.image_alt = alt
    save_with_image(row=row, image=clean_illustration(upload=picture(colour), model=type(row)))
"""
NO_PICTURES = """
from base.illustrations import save_with_image
from news.models import NewsItem
from publications.models import Publication
for model in (NewsItem, Publication):
    for row in model.objects.exclude(image=""):
        row.image_alt = ""
        if getattr(row, "body", None) == STORY:
            row.body = ""
        save_with_image(row=row, image=None)
"""
STORY = "We told the story of the system on stage."


@pytest.fixture(scope="module")
def site(site_url, server_environment, research_group):
    shell(server_environment, f"STORY = {STORY!r}\n{PICTURES}")
    yield site_url
    shell(server_environment, f"STORY = {STORY!r}\n{NO_PICTURES}")


def new_page(browser, site, *, viewport="desktop", scheme="light", scale=1):
    context = browser.new_context(
        viewport=VIEWPORTS[viewport], base_url=site, color_scheme=scheme, device_scale_factor=scale
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


@pytest.fixture(scope="module", params=COMBINATIONS, ids=["-".join(c) for c in COMBINATIONS])
def page(request, browser, site):
    viewport, scheme = request.param
    page = new_page(browser, site, viewport=viewport, scheme=scheme)
    yield page
    page.context.close()


BOX = "element => { const b = element.getBoundingClientRect(); return {left: b.left, right: b.right, top: b.top, bottom: b.bottom, width: b.width}; }"
LOADED = (
    "() => [...document.querySelectorAll('picture img')].every(i => i.complete && i.currentSrc)"
)


def loaded(page, path: str) -> None:
    page.goto(path)
    for image in page.locator("picture img").all():
        image.evaluate("image => { image.loading = 'eager'; }")
    page.wait_for_function(LOADED)


@pytest.mark.parametrize("entry", [".publication--illustrated", ".news-entry--illustrated"])
def test_a_picture_sits_beside_the_entrys_text_inside_its_column_at_390_px(browser, site, entry):
    page = new_page(browser, site, viewport="phone")
    loaded(page, "/publications/" if entry.startswith(".publication") else "/news/")
    illustrated = page.locator(entry).first
    body = illustrated.locator(".publication__body, .news-entry__body").first.evaluate(BOX)
    picture = illustrated.locator("picture").evaluate(BOX)
    title = illustrated.locator(".publication__title, .news-entry__title").first.evaluate(BOX)
    assert body["left"] <= picture["left"] and picture["right"] <= body["right"] + 0.5
    assert body["left"] <= title["left"] and title["right"] <= body["right"] + 0.5
    # The text keeps most of its column: the picture is small beside it, not above it.
    assert picture["width"] <= 0.3 * body["width"], (picture, body)
    assert title["width"] >= 0.6 * body["width"], (title, body)
    assert title["top"] < picture["bottom"], "the title starts beside the picture"
    assert not page.evaluate("document.documentElement.scrollWidth > innerWidth")
    page.context.close()


@pytest.mark.parametrize(
    ("path", "selector", "width"),
    [
        ("/news/", ".news-entry__image img", 120),
        ("/publications/", ".publication__teaser img", 144),
        ("/groups/", ".group-card__image img", 336),
    ],
)
def test_a_high_density_screen_gets_the_2x_picture(browser, site, path, selector, width):
    for scale in (1, 2):
        page = new_page(browser, site, scale=scale)
        loaded(page, path)
        source = page.locator(selector).first.evaluate("image => image.currentSrc")
        page.context.close()
        assert f"-{width * scale}." in source, (scale, source)


def test_the_paper_page_and_the_news_page_show_the_larger_picture(browser, site):
    page = new_page(browser, site)
    loaded(page, "/publications/")
    page.locator(".publication--illustrated .publication__title a").first.click()
    expect(page.locator(".page-image--teaser img")).to_have_attribute("width", "480")
    loaded(page, "/news/")
    page.locator(".news-entry--illustrated .news-entry__title a").first.click()
    expect(page.locator(".page-image img")).to_have_attribute("width", "720")
    assert page.locator('meta[property="og:image"]').get_attribute("content").endswith(".jpg")
    page.context.close()


def test_the_directory_is_one_grid_whose_roles_share_rows_of_four_to_six_cards(browser, site):
    page = new_page(browser, site)
    page.goto("/people/")
    tops = page.locator(".people-grid--flow > .person-card").evaluate_all(
        "cards => cards.map(card => Math.round(card.getBoundingClientRect().top))"
    )
    rows = [tops.count(top) for top in sorted(set(tops))]
    assert rows and all(4 <= cards <= 6 for cards in rows[:-1]), rows
    # Each role names itself once, atop its first card, and roles share rows: the seed's
    # three roles of one or two people fill one row.
    headings = page.locator(".people-grid--flow .person-card__role").all_inner_texts()
    assert len(headings) == len(set(headings)) >= 2, headings
    assert len(rows) < len(headings), (rows, headings)
    page.context.close()


TOUCHED = [
    "/people/",
    "/news/",
    "/publications/",
    "/groups/",
    "/groups/ml-systems/",
    "NEWS_ITEM",
    "PAPER",
]


def resolved(page, path: str) -> str:
    """The page of the pictured paper or news item, found from its list."""
    if path == "PAPER":
        page.goto("/publications/")
        return page.locator(".publication--illustrated .publication__title a").first.get_attribute(
            "href"
        )
    if path == "NEWS_ITEM":
        page.goto("/news/")
        return page.locator(".news-entry--illustrated .news-entry__title a").first.get_attribute(
            "href"
        )
    return path


@pytest.mark.parametrize("path", TOUCHED)
def test_the_pictured_pages_have_no_accessibility_violation_at_all(page, path):
    loaded(page, resolved(page, path))
    violations = Axe().run(page).response["violations"]
    assert [(violation["id"], violation["nodes"][0]["target"]) for violation in violations] == []


def test_the_api_docs_have_dark_colours_of_their_own_and_no_violation(page):
    page.goto("/api/docs/", wait_until="domcontentloaded", timeout=30_000)
    expect(page.locator(".opblock").first).to_be_visible(timeout=30_000)
    page.locator(".opblock-summary-control").first.click()
    filters = page.locator("#swagger-ui").evaluate("element => getComputedStyle(element).filter")
    assert filters == "none", "no inverted filter"
    background = page.locator(".swagger-ui").first.evaluate(
        "element => getComputedStyle(element).backgroundColor"
    )
    dark = page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
    assert (background == "rgb(15, 18, 22)") == dark, background
    violations = Axe().run(page).response["violations"]
    assert [(violation["id"], violation["nodes"][0]["target"]) for violation in violations] == []


@pytest.mark.needs("java", "vnu")
def test_the_pictured_pages_are_valid_html(browser, site, tmp_path):
    from tests.browser.test_html_checker import fetch, nu_errors

    page = new_page(browser, site)
    files = []
    for number, path in enumerate(TOUCHED):
        status, body = fetch(site + resolved(page, path))
        assert status == 200, path
        files.append(tmp_path / f"page-{number}.html")
        files[-1].write_bytes(body)
    page.context.close()
    assert nu_errors(files) == []
