"""The printable CV and its PDF in Simplified Chinese, under /zh-hans/
(docs/decisions/languages.md): the CV's own words translated, the PDF's /Lang and title in
the page's language, its Chinese printed in a CJK font (Debian's fonts-noto-cjk, named in
static/css/cv.css) rather than as empty boxes, and kept apart from the English PDF."""

import io
import re
import subprocess

import pikepdf
import pytest

from base.models import Lab
from people.models import Person
from tests.cases import SeededTestCase
from tests.worker import visitor_pdf

SLUG = "hang-zhu"


def pdf_text(content: bytes) -> str:
    text = subprocess.run(
        ["pdftotext", "-enc", "UTF-8", "-", "-"], input=content, capture_output=True, check=True
    ).stdout.decode()
    return re.sub(r"\s+", " ", text)


def font_names(pdf: pikepdf.Pdf) -> set[str]:
    return {
        str(font.BaseFont)
        for page in pdf.pages
        for font in page.Resources.get("/Font", {}).values()
        if "/BaseFont" in font
    }


class ChineseCvPageTests(SeededTestCase):
    def test_the_cv_page_under_zh_hans_is_in_chinese(self):
        html = self.client.get(f"/zh-hans/people/{SLUG}/cv/").content.decode()
        assert '<html lang="zh-hans">' in html
        for words in ("跳到主要内容", "返回个人主页", "下载 PDF", "研究兴趣", "教育经历", "论文"):
            assert words in html, words
        for words in ("Skip to main content", "Back to the profile", "Download as PDF"):
            assert words not in html, words
        assert f'href="/zh-hans/people/{SLUG}/cv.pdf"' in html
        # A Chinese type name takes no English plural s; an English one still does.
        assert "会议论文s" not in html
        english = self.client.get(f"/people/{SLUG}/cv/").content.decode()
        assert '<html lang="en">' in english
        assert "Download as PDF" in english and "Conference papers" in english


@pytest.mark.needs("weasyprint", "pdftotext", "cjk-font")
class ChineseCvPdfTests(SeededTestCase):
    def test_the_chinese_cv_pdf_says_its_language_and_prints_chinese_in_a_cjk_font(self):
        response = visitor_pdf(self.client, f"/zh-hans/people/{SLUG}/cv.pdf")
        assert response.status_code == 200
        pdf = pikepdf.open(io.BytesIO(response.content))
        name = Person.objects.get(slug=SLUG).name
        assert str(pdf.Root.Lang) == "zh-hans"
        assert str(pdf.docinfo.Title) == f"{name}：个人简历 · {Lab.objects.current().name}"
        text = pdf_text(response.content)
        for heading in ("研究兴趣", "教育经历", "论文"):
            assert heading in text, heading
        assert any("Noto-Sans-CJK" in font for font in font_names(pdf)), font_names(pdf)

        # The English PDF is kept apart: its own language, its own words.
        english = visitor_pdf(self.client, f"/people/{SLUG}/cv.pdf")
        assert english.status_code == 200
        assert str(pikepdf.open(io.BytesIO(english.content)).Root.Lang) == "en"
        english_text = pdf_text(english.content).casefold()  # headings print in capitals
        assert "research interests" in english_text
        assert "研究兴趣" not in english_text
