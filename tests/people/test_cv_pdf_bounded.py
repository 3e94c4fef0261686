"""The CV as PDF rendered at most once per change and a few at a time (directory/pdf_renders.py),
so fifty `cv.pdf?v=N` requests cannot take the site down.

The renders are counted by wrapping the PDF printer (directory.documents.pdf_from_html), which
answers a stand-in PDF numbered by the render: what is tested is when a render happens and
which one is served, not what it prints. These
tests commit for real (transaction=True): the change stamp moves when a save commits. The whole
page cache is off (SITE_CACHE=0) where it would hide whether the PDF itself is kept.
"""

import pytest

from directory.models import Lab
from tests.factories import make_person

# The view imports WeasyPrint (directory.documents) before the counting printer stands in.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.needs("weasyprint")]


def stand_in(number: int) -> bytes:
    return f"%PDF-1.7 stand-in {number}".encode()


@pytest.fixture
def renders(monkeypatch):
    """The HTML of each CV rendered, in order; `renders.during` runs a function inside the next
    render (another request arriving while one renders)."""

    class Renders(list):
        during = None

    done = Renders()

    def counting_printer(html: str, *, site_url: str) -> bytes:
        done.append(html)
        during, done.during = done.during, None  # once: the request inside renders no further
        if during is not None:
            during()
        return stand_in(len(done))

    monkeypatch.setattr("directory.documents.pdf_from_html", counting_printer)
    return done


@pytest.fixture
def member():
    Lab.objects.current()  # made on the first page otherwise, which would move the stamp
    return make_person(name="Hang Zhu", slug="hang-zhu")


def test_an_unknown_parameter_is_redirected_to_the_cv_pdf_s_own_address(client, member, renders):
    for number in range(3):
        response = client.get(f"/people/hang-zhu/cv.pdf?v={number}")
        assert response.status_code == 301
        assert response["Location"] == "/people/hang-zhu/cv.pdf"
    assert len(renders) == 0
    assert client.get("/people/hang-zhu/cv.pdf").content == stand_in(1)
    assert len(renders) == 1


def test_an_unchanged_cv_is_not_rendered_again_and_an_edit_renders_it_anew(
    client, member, renders, settings
):
    settings.SITE_CACHE = False
    for _ in range(3):
        response = client.get("/people/hang-zhu/cv.pdf")
        assert response.status_code == 200
        assert response.content == stand_in(1)
        assert response["Content-Disposition"] == 'inline; filename="hang-zhu-cv.pdf"'
    assert len(renders) == 1

    member.name = "Hang Zhu, PhD"
    member.save()
    assert client.get("/people/hang-zhu/cv.pdf").status_code == 200
    assert len(renders) == 2
    assert "Hang Zhu, PhD" in renders[-1]
    assert client.get("/people/hang-zhu/cv.pdf").status_code == 200
    assert len(renders) == 2


def test_a_cv_requested_while_it_renders_answers_503_with_retry_after(client, member, renders):
    answers = []
    renders.during = lambda: answers.append(client.get("/people/hang-zhu/cv.pdf"))
    assert client.get("/people/hang-zhu/cv.pdf").status_code == 200
    assert len(renders) == 1
    (answer,) = answers
    assert answer.status_code == 503
    assert int(answer["Retry-After"]) > 0
    assert "try again" in answer.content.decode()
    assert "no-store" in answer["Cache-Control"]


def test_a_render_beyond_the_cap_answers_503_with_retry_after(client, member, renders, settings):
    settings.CV_PDF_MAX_CONCURRENT_RENDERS = 1
    make_person(name="Bo Zhao", slug="bo-zhao")
    answers = []
    renders.during = lambda: answers.append(client.get("/people/bo-zhao/cv.pdf"))
    assert client.get("/people/hang-zhu/cv.pdf").status_code == 200
    (answer,) = answers
    assert answer.status_code == 503
    assert int(answer["Retry-After"]) > 0
    assert len(renders) == 1, "the second CV waited for a slot instead of rendering"

    # The slot is free again once the first render is done.
    assert client.get("/people/bo-zhao/cv.pdf").status_code == 200
    assert len(renders) == 2


def test_while_a_cv_renders_after_an_edit_visitors_get_the_previous_pdf(client, member, renders):
    assert client.get("/people/hang-zhu/cv.pdf").content == stand_in(1)
    member.name = "Hang Zhu, PhD"
    member.save()
    answers = []
    renders.during = lambda: answers.append(client.get("/people/hang-zhu/cv.pdf"))
    assert client.get("/people/hang-zhu/cv.pdf").content == stand_in(2)
    (answer,) = answers
    assert answer.status_code == 200
    assert answer.content == stand_in(1), "the PDF as it was before the edit"
    assert "no-store" in answer["Cache-Control"], "kept by no cache: the new one is coming"
    assert len(renders) == 2
    assert client.get("/people/hang-zhu/cv.pdf").content == stand_in(2)
