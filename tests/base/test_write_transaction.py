"""An admin save or a sign-in whose transaction could not begin within SQLite's busy timeout
("database is locked": another writer kept the one write lock) waits for it again: nothing had
begun. Under `make load` (10 editors saving and signing in beside a 1,000-entry import) 16
saves and 4 sign-ins of about 2,000 answered 500 this way. The failed BEGIN is injected here
(the first transaction the request asks for cannot begin), so the tests run on any database."""

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
