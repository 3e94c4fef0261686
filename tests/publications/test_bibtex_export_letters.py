"""The BibTeX export keeps every letter: pylatexenc's LaTeX table wrote Greek capitals as Latin
ones ("Α" as "A"), dropped most Cyrillic letters and turned "·" into "˙" (found by the property
tests). What a reader cannot get back from LaTeX is written as UTF-8."""

import pytest
from django.test import Client

from tests.factories import make_publication
from tests.renderings import Reading, read_bibtex

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "title",
    ["Ѳеорія і Ѵ", "ΑΒΓ and Ωmega", "Dot · product", "Łódź, Ærø and Öl", "Cost: 5$ & 10% {x}_~"],
)
def test_a_title_reads_back_from_the_bibtex_export_letter_for_letter(title):
    publication = make_publication(title=title, slug="paper")
    reading = Reading()
    read_bibtex(Client(), f"/publications/{publication.slug}.bib", reading)
    [entry] = reading.bibtex[f"/publications/{publication.slug}.bib"]
    assert entry["title"] == title
