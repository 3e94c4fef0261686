"""The CV as PDF printed by the task worker for visitors, at most once per change, and in the
request only for signed-in users, a few at a time (base/pdf_renders.py), so fifty
`cv.pdf?v=N` requests cannot take the site down.

The prints are counted by wrapping the PDF printer (base.documents.pdf_from_html), which
answers a stand-in PDF numbered by the print: what is tested is when a print happens, where,
and which one is served, not what it prints (tests/people/test_cv_pdf_tagged.py reads real
ones). The worker is `manage.py db_worker` itself, run in this process until the queue is empty,
as the BibTeX jobs' tests run it. These tests commit for real (transaction=True): the change
stamp moves when a save commits.
"""

import pytest
from django_tasks_db.models import DBTaskResult

from base.models import Lab
from people.models import Researcher
from tests.factories import make_person, make_publication
from tests.worker import run_worker

# The view imports WeasyPrint (base.documents) before the counting printer stands in.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.needs("weasyprint")]

CV = "/people/hang-zhu/cv.pdf"


def stand_in(number: int) -> bytes:
    return f"%PDF-1.7 stand-in {number}".encode()


def queued_prints() -> int:
    return DBTaskResult.objects.filter(task_path="pages.tasks.print_cv_pdf").count()


@pytest.fixture
def renders(monkeypatch):
    """The HTML of each CV printed, in order; `renders.during` runs a function inside the next
    print (another request arriving while one prints)."""

    class Renders(list):
        during = None

    done = Renders()

    def counting_printer(html: str, *, site_url: str) -> bytes:
        done.append(html)
        during, done.during = done.during, None  # once: the request inside prints no further
        if during is not None:
            during()
        return stand_in(len(done))

    monkeypatch.setattr("base.documents.pdf_from_html", counting_printer)
    return done


@pytest.fixture
def member():
    Lab.objects.current()  # made on the first page otherwise, which would move the stamp
    return make_person(name="Hang Zhu", slug="hang-zhu")


def assert_being_prepared(response):
    assert response.status_code == 503
    assert int(response["Retry-After"]) > 0
    assert response.content.decode() == "The PDF is being prepared; try again in a few seconds.\n"
    assert "no-store" in response["Cache-Control"]


def printed_and_served(client):
    """A visitor's first request queues the CV's print, the worker prints it, the next is
    answered with it."""
    client.get(CV)
    run_worker()
    assert client.get(CV).content == stand_in(1)


def test_a_visitor_s_request_queues_one_print_in_the_worker_and_the_web_process_prints_nothing(
    client, member, renders
):
    for _ in range(3):
        assert_being_prepared(client.get(CV))
    assert len(renders) == 0, "printed in the web process"
    assert queued_prints() == 1, "one print queued however many asked"

    run_worker()
    assert len(renders) == 1
    assert "Hang Zhu" in renders[0]
    assert 'href="http://testserver/people/hang-zhu/"' in renders[0], "links as the visitor's"
    response = client.get(CV)
    assert response.status_code == 200
    assert response.content == stand_in(1)
    assert response["Content-Disposition"] == 'inline; filename="hang-zhu-cv.pdf"'
    assert queued_prints() == 1


def test_an_unknown_person_s_pdf_is_not_found_and_queues_nothing(client, member, renders):
    assert client.get("/people/nobody/cv.pdf").status_code == 404
    assert queued_prints() == 0


def test_an_unknown_parameter_is_redirected_to_the_cv_pdf_s_own_address(
    client, member, renders, django_assert_num_queries
):
    for number in range(3):
        # Before the database: each request of a cache-busting flood costs the middleware only.
        with django_assert_num_queries(0):
            response = client.get(f"{CV}?v={number}")
        assert response.status_code == 301
        assert response["Location"] == CV
    assert queued_prints() == 0
    assert client.get(CV).status_code == 503
    run_worker()
    assert client.get(CV).content == stand_in(1)
    assert len(renders) == 1


def test_an_unchanged_cv_is_not_printed_again_and_an_edit_prints_it_anew(
    client, member, renders, settings
):
    settings.SITE_CACHE = False  # the whole page cache would hide whether the PDF is kept
    client.get(CV)
    run_worker()
    for _ in range(3):
        assert client.get(CV).content == stand_in(1)
    assert len(renders) == 1 and queued_prints() == 1

    member.name = "Hang Zhu, PhD"
    member.save()
    assert client.get(CV).status_code == 200  # the previous copy, while the worker prints
    run_worker()
    assert len(renders) == 2
    assert "Hang Zhu, PhD" in renders[-1]
    assert client.get(CV).content == stand_in(2)
    run_worker()
    assert len(renders) == 2 and queued_prints() == 2


def test_after_an_edit_visitors_get_the_previous_pdf_until_the_worker_has_printed_the_new_one(
    client, member, renders
):
    printed_and_served(client)
    member.name = "Hang Zhu, PhD"
    member.save()
    for _ in range(2):
        answer = client.get(CV)
        assert answer.status_code == 200
        assert answer.content == stand_in(1), "the PDF as it was before the edit"
        assert "no-store" in answer["Cache-Control"], "kept by no cache: the new one is coming"
    assert len(renders) == 1

    run_worker()
    assert client.get(CV).content == stand_in(2)
    assert len(renders) == 2


def test_a_print_queued_twice_prints_once(client, member, renders, settings):
    settings.SITE_CACHE = False
    from pages.tasks import print_cv_pdf

    client.get(CV)
    print_cv_pdf.enqueue(f"http://testserver{CV}", "hang-zhu")  # as a second server might
    assert queued_prints() == 2
    run_worker()
    assert len(renders) == 1, "the second task found the PDF kept for the site as it is"
    assert client.get(CV).content == stand_in(1)


def test_a_signed_in_editor_s_pdf_is_printed_in_the_request_within_the_cap(
    editor_client, member, renders, settings
):
    settings.CV_PDF_MAX_CONCURRENT_RENDERS = 1
    make_person(name="Bo Zhao", slug="bo-zhao")
    answers = []
    renders.during = lambda: answers.append(editor_client.get("/people/bo-zhao/cv.pdf"))
    assert editor_client.get(CV).content == stand_in(1), "printed at once, fresh"
    (answer,) = answers
    assert answer.status_code == 503
    assert int(answer["Retry-After"]) > 0
    assert "try again" in answer.content.decode()
    assert len(renders) == 1, "the second CV waited for a slot instead of printing"
    assert queued_prints() == 0

    # The slot is free again once the first print is done.
    assert editor_client.get("/people/bo-zhao/cv.pdf").content == stand_in(2)


def test_a_cv_pdf_outlives_a_save_of_another_member_s_paper_and_is_printed_again_after_its_own(
    client, member, renders, settings
):
    settings.SITE_CACHE = False  # the whole page cache would hide whether the PDF is kept
    other = make_person(name="Bo Zhao", slug="bo-zhao")
    theirs = make_publication(authors=[other], title="Bo's paper")
    mine = make_publication(authors=[member], title="Hang's paper")
    printed_and_served(client)

    theirs.title = "Bo's paper, revised"
    theirs.save()
    assert client.get(CV).content == stand_in(1)
    run_worker()
    assert len(renders) == 1 and queued_prints() == 1, "printed again for another's paper"

    mine.title = "Hang's paper, revised"
    mine.save()
    client.get(CV)
    run_worker()
    assert len(renders) == 2
    assert "Hang&#x27;s paper, revised" in renders[-1] or "Hang's paper, revised" in renders[-1]
    assert client.get(CV).content == stand_in(2)


def test_a_visitor_s_request_for_a_cv_being_printed_reads_no_row(
    client, member, renders, django_assert_num_queries
):
    """The member's address is read from the kept list of published members, not the
    database: a flood of such requests costs each the middleware and the cache's reads."""
    assert_being_prepared(client.get(CV))  # the list read, the print queued
    with django_assert_num_queries(0):
        assert_being_prepared(client.get(CV))


def test_a_member_unpublished_given_a_new_address_or_deleted_has_no_cv_pdf_at_the_old_one(
    client, member, renders
):
    printed_and_served(client)
    member.slug = "hang-zhu-2"
    member.save()
    assert client.get(CV).status_code == 404, "not the copy printed before"
    assert client.get("/people/hang-zhu-2/cv.pdf").status_code in (200, 503)

    # Written as its researcher row, in bulk, as a merge or a split writes it.
    Researcher.objects.filter(pk=member.pk).update(slug="hang-zhu-3")
    assert client.get("/people/hang-zhu-2/cv.pdf").status_code == 404
    assert client.get("/people/hang-zhu-3/cv.pdf").status_code in (200, 503)

    member.refresh_from_db()
    member.is_published = False
    member.save()
    assert client.get("/people/hang-zhu-3/cv.pdf").status_code == 404

    member.is_published = True
    member.save()
    assert client.get("/people/hang-zhu-3/cv.pdf").status_code in (200, 503)
    member.delete()
    assert client.get("/people/hang-zhu-3/cv.pdf").status_code == 404


def test_a_slug_taken_by_another_member_never_serves_the_first_one_s_cv(client, member, renders):
    printed_and_served(client)
    member.slug = "hang-zhu-2"
    member.save()
    make_person(name="Hang Zhu", slug="hang-zhu")  # another member, with the freed address
    answer = client.get(CV)
    assert answer.content != stand_in(1), "the other member's CV, printed under this address"
    assert_being_prepared(answer)
    run_worker()
    assert client.get(CV).content == stand_in(2)
