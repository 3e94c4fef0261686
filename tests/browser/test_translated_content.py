"""Pages holding texts staff gave in Chinese (base/translations.py), in both languages: axe finds
nothing serious or critical, the Nu checker no error, and each text says its language: the
Chinese page shows the translation, the English page the original, and an original shown on a
Chinese page for want of a translation is marked lang="en"."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import shell
from tests.browser.test_html_checker import fetch, nu_errors
from tests.browser.test_pages import blocking_violations

TITLE = "CausalMesh: A Causal Cache for Stateful Serverless Computing"
TITLE_ZH = "CausalMesh：面向有状态无服务器计算的因果缓存"

ADD_TRANSLATIONS = f"""
from people.models import Person
from publications.models import Publication
paper = Publication.objects.get(slug="causalmesh")
paper.title_zh_hans = "{TITLE_ZH}"
paper.abstract_zh_hans = "我们提出 **CausalMesh**，一种因果一致的缓存。"
paper.save()
haoran = Person.objects.get(slug="haoran-zhang")
haoran.bio_zh_hans = "张浩然研究机器学习系统与分布式系统。"
haoran.save()
"""
REMOVE_TRANSLATIONS = """
from people.models import Person
from publications.models import Publication
Publication.objects.filter(slug="causalmesh").update(title_zh_hans="", abstract_zh_hans="")
paper = Publication.objects.get(slug="causalmesh")
paper.save()
haoran = Person.objects.get(slug="haoran-zhang")
haoran.bio_zh_hans = ""
haoran.save()
"""

BIO_ZH = "张浩然研究机器学习系统与分布式系统。"
# Each page, with a text it shows in its language: the translation under /zh-hans/.
PAGES = {
    "/publications/causalmesh/": TITLE,
    "/people/haoran-zhang/": TITLE,
    "/publications/?q=causalmesh": TITLE,
    "/zh-hans/publications/causalmesh/": TITLE_ZH,
    "/zh-hans/people/haoran-zhang/": BIO_ZH,
    "/zh-hans/publications/?q=causalmesh": TITLE_ZH,
}


@pytest.fixture(scope="module")
def translations(site_url, server_environment):
    shell(server_environment, ADD_TRANSLATIONS)
    yield
    shell(server_environment, REMOVE_TRANSLATIONS)


@pytest.mark.parametrize("address", PAGES)
def test_a_page_with_translated_texts_passes_axe_in_both_languages(translations, page, address):
    assert page.goto(address).status == 200
    expect(page.locator("#main-content")).to_contain_text(PAGES[address])
    if not address.startswith("/zh-hans/"):
        expect(page.locator("#main-content")).not_to_contain_text(TITLE_ZH)
    assert blocking_violations(page) == []


def test_the_chinese_page_shows_the_translation_and_marks_untranslated_originals_as_english(
    translations, page
):
    page.goto("/zh-hans/publications/causalmesh/")
    expect(page.locator("html")).to_have_attribute("lang", "zh-hans")
    heading = page.get_by_role("heading", level=1)
    expect(heading).to_have_text(TITLE_ZH)
    expect(heading).not_to_have_attribute("lang", "en")
    # Its members' other papers have no translation: their titles say they are English.
    other = page.locator('#main-content a[lang="en"][href^="/zh-hans/publications/"]').first
    expect(other).to_be_visible()
    page.goto("/zh-hans/people/haoran-zhang/")
    expect(page.locator(".prose").first).to_have_text(BIO_ZH)
    page.goto("/publications/causalmesh/")
    expect(page.get_by_role("heading", level=1)).to_have_text(TITLE)


@pytest.mark.needs("java", "vnu")
def test_pages_with_translated_texts_are_valid_html_in_both_languages(
    translations, site_url, tmp_path
):
    files = []
    for number, address in enumerate(PAGES):
        status, body = fetch(site_url + address)
        assert status == 200, address
        assert PAGES[address] in body.decode(), address
        files.append(tmp_path / f"page-{number}.html")
        files[-1].write_bytes(body)
    assert nu_errors(files) == []
