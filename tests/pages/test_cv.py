"""The CV of each seeded person, as a printable page and as a PDF read back with pdftotext."""

import re
import subprocess

import pytest

from people.models import Person
from publications.models import Publication
from tests.cases import SeededTestCase, parametrize
from tests.worker import visitor_pdf

SEEDED = ["hang-zhu", "haoran-zhang", "zerui-wang", "hao-zhang"]
# Each a related name on Person; each row has a headline and its dates at their precision.
CV_SECTIONS = ["education", "experience", "teaching", "service", "awards"]


def pdf_text(pdf: bytes) -> str:
    """The PDF's text as pdftotext (poppler) reads it, in the order it was laid out, with the
    line breaks of a long title undone: a break after a hyphen ("two-" / "dimensional") joins
    the word again, any other becomes a space."""
    text = subprocess.run(
        ["pdftotext", "-raw", "-enc", "UTF-8", "-", "-"],
        input=pdf,
        capture_output=True,
        check=True,
    ).stdout.decode()
    return squash(re.sub(r"(?<=\w)-\n", "-", text))


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


class SeededCvTests(SeededTestCase):
    """Over the seed: each profile's education, CV entries and papers."""

    @parametrize("slug", SEEDED)
    @pytest.mark.needs("weasyprint", "pdftotext")
    def test_the_cv_pdf_holds_every_education_entry_and_publication_of_the_profile(self, slug):
        response = visitor_pdf(self.client, f"/people/{slug}/cv.pdf")
        assert response.status_code == 200
        assert response["Content-Type"] == "application/pdf"
        assert response.content.startswith(b"%PDF-")
        text = pdf_text(response.content)

        person = Person.objects.get(slug=slug)
        assert person.name in text
        publications = list(Publication.objects.published().authored_by(person))
        for section in CV_SECTIONS:
            for entry in getattr(person, section).all():
                assert squash(entry.headline) in text, (section, entry.headline)
                assert squash(entry.when) in text, (section, entry.when)
        for publication in publications:
            assert squash(publication.title) in text, publication.title

    def test_the_seeded_profiles_give_the_pdf_test_entries_to_look_for(self):
        people = Person.objects.filter(slug__in=SEEDED)
        for section in CV_SECTIONS:
            entries = sum(getattr(person, section).count() for person in people)
            assert entries >= (5 if section == "education" else 1), section
        assert Publication.objects.published().authored_by(people).count() >= 20

    def test_the_cv_groups_publications_by_type_and_gives_dates_at_their_precision(self):
        html = self.client.get("/people/zerui-wang/cv/").content.decode()
        assert "Sep 2023 – Present" in html
        assert "Jan 1" not in html and "Jan. 1" not in html
        headings = re.findall(r'<h3 id="publications-([a-z-]+)">', html)
        types = [value for value in Publication.Type.values if value in headings]
        assert headings == types, "groups follow the order the types are declared in"
        assert headings

    def test_the_profile_links_its_cv_page_and_pdf(self):
        html = self.client.get("/people/hang-zhu/").content.decode()
        assert 'href="/people/hang-zhu/cv/"' in html
        assert 'href="/people/hang-zhu/cv.pdf"' in html

    @pytest.mark.needs("weasyprint", "pdftotext")
    def test_the_cv_page_links_the_pdf_and_the_pdf_has_no_page_controls(self):
        html = self.client.get("/people/hang-zhu/cv/").content.decode()
        assert 'href="/people/hang-zhu/cv.pdf"' in html
        text = pdf_text(visitor_pdf(self.client, "/people/hang-zhu/cv.pdf").content)
        assert "Download as PDF" not in text
        assert "Skip to main content" not in text

    def test_an_unknown_person_has_no_cv(self):
        assert self.client.get("/people/nobody/cv/").status_code == 404
        assert self.client.get("/people/nobody/cv.pdf").status_code == 404
