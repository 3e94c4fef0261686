"""An admin save or a sign-in whose transaction could not begin within SQLite's busy timeout
("database is locked": another writer kept the one write lock) waits for it again: nothing had
begun. Under `make load` (10 editors saving and signing in beside a 1,000-entry import) 16
saves and 4 sign-ins of about 2,000 answered 500 this way. The failed BEGIN is injected here
(the first transaction the request asks for cannot begin), so the tests run on any database."""

import threading
import time

import pytest
from django.contrib.auth.models import User
from django.db import OperationalError, transaction
from django.urls import reverse

from base import write_lock
from publications.models import Publication
from tests.admin_forms import post_person, publication_form
from tests.factories import make_person, make_publication

pytestmark = pytest.mark.django_db(transaction=True)  # the request's own transaction, not a test's


class LockedAtFirst:
    """transaction.atomic, whose first transaction cannot begin: the lock's wait ran out."""

    def __init__(self, atomic) -> None:
        self.real_atomic = atomic
        self.tries = 0

    def __call__(self, *args, **kwargs):
        self.tries += 1
        if self.tries == 1:
            raise OperationalError("database is locked")
        return self.real_atomic(*args, **kwargs)


def lock_at_first(monkeypatch) -> None:
    """From now on, the first transaction asked for cannot begin."""
    monkeypatch.setattr(transaction, "atomic", LockedAtFirst(transaction.atomic))
    monkeypatch.setattr(write_lock, "is_write_lock_timeout", lambda error: True)


@pytest.fixture
def editor_login() -> User:
    return User.objects.create_superuser("edith", "edith@example.org", "a-long-password-here")


def test_a_save_whose_transaction_could_not_begin_at_once_is_saved(
    client, editor_login, monkeypatch
):
    client.force_login(editor_login)
    person = make_person(name="Ada Lovelace")
    paper = make_publication(title="Notes on the Engine")
    with monkeypatch.context() as patched:
        lock_at_first(patched)
        answer = post_person(client, person, short_bio="Saved after waiting for the lock.")
    assert answer.status_code == 302
    person.refresh_from_db()
    assert person.short_bio == "Saved after waiting for the lock."

    url = reverse("admin:publications_publication_change", args=[paper.pk])
    with monkeypatch.context() as patched:
        lock_at_first(patched)
        answer = client.post(url, publication_form(paper, abstract="Also saved."))
    assert answer.status_code == 302
    assert Publication.objects.get(pk=paper.pk).abstract == "Also saved."


def test_a_sign_in_whose_transaction_could_not_begin_at_once_signs_in(
    client, editor_login, monkeypatch
):
    lock_at_first(monkeypatch)
    answer = client.post(
        reverse("admin:login"),
        {"username": "edith", "password": "a-long-password-here", "next": "/admin/"},
    )
    assert answer.status_code == 302 and answer["Location"] == "/admin/"
    assert int(client.session["_auth_user_id"]) == editor_login.pk


def test_a_processs_writers_get_their_turn_in_the_order_they_came(tmp_path, monkeypatch):
    """SQLite's own waiting favours the newest waiter: under `make load` some editors' saves
    waited past the 30 s bound (503) behind later ones. Each waits its turn instead."""
    monkeypatch.setattr(write_lock, "turn_file", lambda using: str(tmp_path / "db-writers"))
    holding, done = threading.Event(), threading.Event()
    order: list[int] = []

    def hold() -> None:
        with write_lock.writers_turn(using="default", deadline=time.monotonic() + 30):
            holding.set()
            done.wait(30)

    def write(number: int) -> None:
        with write_lock.writers_turn(using="default", deadline=time.monotonic() + 30):
            order.append(number)

    holder = threading.Thread(target=hold)
    holder.start()
    holding.wait(30)
    writers = [threading.Thread(target=write, args=(number,)) for number in range(6)]
    for writer in writers:
        writer.start()
        time.sleep(0.05)  # each comes after the one before
    done.set()
    for thread in [holder, *writers]:
        thread.join(30)
    assert order == list(range(6))


def test_a_writer_whose_turn_does_not_come_within_the_wait_gives_up_as_locked(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(write_lock, "turn_file", lambda using: str(tmp_path / "db-writers"))
    holding, done = threading.Event(), threading.Event()

    def hold() -> None:
        with write_lock.writers_turn(using="default", deadline=time.monotonic() + 30):
            holding.set()
            done.wait(30)

    holder = threading.Thread(target=hold)
    holder.start()
    holding.wait(30)
    try:
        with (
            pytest.raises(OperationalError, match="database is locked"),
            write_lock.writers_turn(using="default", deadline=time.monotonic() + 0.2),
        ):
            pass
    finally:
        done.set()
        holder.join(30)
