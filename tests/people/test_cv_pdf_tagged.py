"""The CV PDF as a screen reader needs it (issue 29): tagged PDF/UA-1 (base/documents.py),
read back with pikepdf: marked, with a structure tree whose headings are the page's, its
language and its title, and a text layer that reads in the page's order (pdftotext).

No PDF/UA validator installs here (veraPDF comes from neither PyPI nor Debian:
docs/decisions/pdf-ua.md), so these check what PDF/UA asks that a reader relies on."""

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


def structure_types(pdf: pikepdf.Pdf) -> list[str]:
    """The structure elements' types (H1, P, L, LI ...), in the tree's order, which is the
    order assistive technology reads them in."""
    types: list[str] = []

    def walk(node) -> None:
        if isinstance(node, pikepdf.Array):
            for child in node:
                walk(child)
        elif isinstance(node, pikepdf.Dictionary) and node.get("/Type") != "/MCR":
            if "/S" in node:
                types.append(str(node.S).removeprefix("/"))
            if "/K" in node:
                walk(node.K)

    walk(pdf.Root.StructTreeRoot)
    return types


def headings(html: str, level: int) -> list[str]:
    """The text of the page's headings of one level, in order."""
    found = re.findall(rf"<h{level}[^>]*>(.*?)</h{level}>", html, flags=re.DOTALL)
    return [re.sub(r"<[^>]+>|\s+", " ", heading).strip() for heading in found]


@pytest.mark.needs("weasyprint", "pdftotext")
class TaggedCvPdfTests(SeededTestCase):
    printed: bytes | None = None

    def cv(self) -> tuple[pikepdf.Pdf, bytes, str]:
        """The visitor's PDF (printed by the task worker, once for the class), read by pikepdf,
        as bytes, and the CV page it is printed from."""
        if TaggedCvPdfTests.printed is None:
            response = visitor_pdf(self.client, f"/people/{SLUG}/cv.pdf")
            assert response.status_code == 200
            TaggedCvPdfTests.printed = response.content
        html = self.client.get(f"/people/{SLUG}/cv/").content.decode()
        content = TaggedCvPdfTests.printed
        return pikepdf.open(io.BytesIO(content)), content, html

    def test_the_cv_pdf_is_marked_pdf_ua_with_its_language_and_its_title_as_the_window_s(self):
        pdf, _, _ = self.cv()
        title = (
            f"{Person.objects.get(slug=SLUG).name}: curriculum vitae · {Lab.objects.current().name}"
        )
        assert pdf.Root.MarkInfo.Marked is True
        assert "/StructTreeRoot" in pdf.Root
        assert str(pdf.Root.Lang) == "en"
        assert pdf.Root.ViewerPreferences.DisplayDocTitle is True
        assert str(pdf.docinfo.Title) == title
        with pdf.open_metadata() as metadata:
            assert metadata["dc:title"] == title
            assert metadata["pdfuaid:part"] == "1"
        for page in pdf.pages:
            assert page.Tabs == "/S", "links are reached in the structure's order"
            for link in page.get("/Annots", []):
                assert str(link.Contents).startswith("http"), "each link says where it leads"

    def test_the_headings_are_tagged_as_the_page_s_and_the_text_reads_in_their_order(self):
        pdf, content, html = self.cv()
        types = structure_types(pdf)
        tagged = [kind for kind in types if re.fullmatch(r"H\d", kind)]
        sections = headings(html, 2)
        assert tagged[0] == "H1" and tagged.count("H1") == 1
        assert tagged.count("H2") == len(sections) >= 4
        assert tagged.count("H3") == len(headings(html, 3)) >= 1
        assert types.count("LI") >= html.count('<li class="cv-publication">') > 0

        # The text layer reads as the page does: the name, then each section in turn.
        text = subprocess.run(
            ["pdftotext", "-enc", "UTF-8", "-", "-"], input=content, capture_output=True, check=True
        ).stdout.decode()
        text = re.sub(r"\s+", " ", text).casefold()
        order = [headings(html, 1)[0], *sections]
        positions = [text.find(heading.casefold()) for heading in order]
        assert -1 not in positions, list(zip(order, positions, strict=True))
        assert positions == sorted(positions), list(zip(order, positions, strict=True))
