"""config/middleware.py: an error under /api/ made JSON keeps what its headers tell a client."""

import json

import pytest
from django.db import OperationalError
from django.http import HttpResponse
from django.test import Client, RequestFactory

from base import write_lock
from base.write_lock import RETRY_AFTER_SECONDS
from config.middleware import ApiJsonErrorsMiddleware
from people.models.profile import PersonQuerySet


@pytest.mark.django_db
def test_the_busy_answer_of_the_api_is_json_and_says_when_to_ask_again(monkeypatch):
    """SQLite's write lock not had in time (issue 27): handler500's 503 and its Retry-After."""

    def locked(self):
        raise OperationalError("database is locked")

    monkeypatch.setattr(PersonQuerySet, "for_directory", locked)
    # SQLite's error; on PostgreSQL (CI's second run) the same error is told apart just as well.
    monkeypatch.setattr(write_lock, "is_write_lock_timeout", lambda error: True)
    response = Client(raise_request_exception=False).get("/api/people/")
    assert response.status_code == 503
    assert response.json() == {"detail": "Service Unavailable", "errors": []}
    assert response["Retry-After"] == str(RETRY_AFTER_SECONDS)


def test_an_error_made_json_keeps_every_header_but_those_of_the_page_it_replaces():
    def too_many(request):
        page = HttpResponse("<p>Slow down</p>", status=429)
        page["Retry-After"] = "30"
        page["Cache-Control"] = "no-store"
        page["Vary"] = "Cookie"
        page["Content-Language"] = "en"
        page["ETag"] = '"of-the-page"'
        page["Content-Length"] = str(len(page.content))
        page.set_cookie("seen", "1")
        return page

    response = ApiJsonErrorsMiddleware(too_many)(RequestFactory().get("/api/people/"))
    assert response.status_code == 429
    assert json.loads(response.content) == {"detail": "Too Many Requests", "errors": []}
    headers = {name: response.get(name) for name in ("Retry-After", "Cache-Control", "Vary")}
    assert headers == {"Retry-After": "30", "Cache-Control": "no-store", "Vary": "Cookie"}
    assert response["Content-Language"] == "en"
    assert response["Content-Type"] == "application/json"
    assert response.get("Content-Length") in (None, str(len(response.content)))
    assert "ETag" not in response
    assert response.cookies["seen"].value == "1"
