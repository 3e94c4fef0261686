"""A sign-in while another writer holds SQLite's one write lock (an import's batch), on a
served site (tests/live_site.py) with the busy timeout cut to 1 s.

A sign-in writes django-axes' access log, the new session and the last login; the session's
save came after the view, in a transaction of its own, tried once. An import that took the
lock again the moment the sign-in's transaction ended made that save wait out its timeout:
the member, whose password had been accepted, got 400 ("the session was deleted before the
request completed") and was not signed in. And a request
whose wait for the lock never ends must give up in time with a clear 503, not a 500 after
five busy timeouts (100 s at the default 20 s).
"""

import sqlite3
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from email.message import Message
from http.cookiejar import CookieJar
from pathlib import Path

import pytest

from tests.live_site import (
    STAFF_PASSWORD,
    NoRedirect,
    StaffMember,
    change_pages,
    csrf_token,
    prepare_site,
    served,
    site_environment,
)


@pytest.fixture(scope="module")
def site(tmp_path_factory, collected_static) -> tuple[dict[str, str], Path]:
    folder = tmp_path_factory.mktemp("sign-in-under-lock")
    environment = site_environment(
        folder, STATIC_ROOT=str(collected_static), SQLITE_BUSY_TIMEOUT="1"
    )
    prepare_site(environment, staff=["editor"], collect_static=False)
    return environment, folder


def sign_in(url: str, answers: list) -> None:
    """Open the admin's sign-in form and post it as a browser does, then open the admin's
    index; both answers (status, body, headers) go into `answers`."""
    opener = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(CookieJar()), NoRedirect()
    )

    def answer(path: str, data: bytes | None = None) -> tuple[int, str, Message]:
        request = urllib.request.Request(url + path, data=data)
        if data is not None:
            request.add_header("Referer", url + path)
        try:
            with opener.open(request, timeout=60) as response:
                return response.status, response.read().decode(), response.headers
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(errors="replace"), error.headers

    _, form, _ = answer("/admin/login/")
    fields = {
        "csrfmiddlewaretoken": csrf_token(form),
        "username": "editor",
        "password": STAFF_PASSWORD,
        "next": "/admin/",
    }
    answers.append(answer("/admin/login/", urllib.parse.urlencode(fields).encode()))
    answers.append(answer("/admin/"))


def access_logs(database: sqlite3.Connection) -> int:
    return database.execute("SELECT count(*) FROM axes_accesslog").fetchone()[0]


def take_the_lock(database: sqlite3.Connection) -> None:
    """BEGIN IMMEDIATE at once, over and over until it is had: a writer in a hurry."""
    while True:
        try:
            database.execute("BEGIN IMMEDIATE")
            return
        except sqlite3.OperationalError:
            time.sleep(0.0005)


def test_a_sign_in_between_an_imports_batches_signs_in(site):
    environment, folder = site
    with served(environment, folder) as url:
        importer = sqlite3.connect(folder / "site.sqlite3", isolation_level=None, timeout=0)
        logs_before = access_logs(importer)
        importer.execute("BEGIN IMMEDIATE")  # a batch being saved
        answers: list = []
        signing_in = threading.Thread(target=sign_in, args=(url, answers))
        signing_in.start()
        time.sleep(1.5)  # past the busy timeout: the sign-in waits again
        importer.execute("ROLLBACK")
        # The import lets the sign-in's transaction have the lock, and takes it again the
        # moment that transaction ends (its access log is written), for its next batch.
        given_up = time.monotonic() + 60  # a sign-in that never ends fails below, not hangs
        while True:
            take_the_lock(importer)
            if access_logs(importer) > logs_before or time.monotonic() > given_up:
                break
            importer.execute("ROLLBACK")
            time.sleep(0.002)
        time.sleep(2.5)  # the next batch: longer than a busy timeout
        importer.execute("ROLLBACK")
        signing_in.join()
        importer.close()
    (signed_in, _, headers), (index_status, index, _) = answers
    assert (signed_in, headers["Location"]) == (302, "/admin/")
    assert index_status == 200 and "Log out" in index


def test_a_request_that_cannot_have_the_write_lock_in_time_is_told_the_site_is_busy(site):
    environment, folder = site
    with served({**environment, "SQLITE_WRITE_WAIT": "3"}, folder) as url:
        editor = StaffMember(url, "editor")
        page, form_id, field = change_pages(editor)[0]
        holder = sqlite3.connect(folder / "site.sqlite3", isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # kept for the whole test
        try:
            saved = editor.save_change_form(page, form_id, {field: "Saved while locked."})
            answers: list = []
            started = time.monotonic()
            sign_in(url, answers)
            waited = time.monotonic() - started
        finally:
            holder.execute("ROLLBACK")
            holder.close()
    assert saved.status == 503
    status, body, headers = answers[0]
    assert (status, headers["Retry-After"]) == (503, "60")
    for page_body in (saved.body, body):
        assert "The site is busy" in page_body
        assert "please try again in a minute" in page_body
    # It waited its 3 s (SQLITE_WRITE_WAIT; 30 s by default), not five busy timeouts or more.
    assert 3 <= waited < 15
