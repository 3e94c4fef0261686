"""Headers, brute-force protection, sanitized rich text, production settings, health check."""

import os
import secrets
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.db import DatabaseError
from django.urls import reverse

from base.models import Lab
from tests.factories import make_news, make_person, make_publication

pytestmark = pytest.mark.django_db

PROJECT = Path(__file__).resolve().parent.parent.parent
HOSTILE = (
    "Intro <script>alert('x')</script> "
    "[click](javascript:alert(1)) "
    '<a href="javascript:alert(2)">link</a> '
    '<img src="x" onerror="alert(3)"> '
    '<p onclick="alert(4)">para '
    "<iframe src='https://evil.example'></iframe> "
    "<style>body{display:none}</style> "
    "<b>unclosed <i>tags"
)


class ActiveContentFinder(HTMLParser):
    """Collects whatever in a page could run: scripts that are not our files or JSON data,
    event-handler attributes, javascript: URLs, frames and style elements."""

    def __init__(self):
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "script":
            data_block = attributes.get("type") in {"application/ld+json", "application/json"}
            own_file = (attributes.get("src") or "").startswith("/static/")
            if not (data_block or own_file):
                self.found.append(f"<script {attributes}>")
        if tag in {"iframe", "object", "embed", "style"}:
            self.found.append(f"<{tag}>")
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append(f"{tag} {name}")
            if name in {"href", "src", "action"} and (value or "").strip().lower().startswith(
                "javascript:"
            ):
                self.found.append(f"{tag} {name}={value}")


def assert_defused(html: str) -> None:
    finder = ActiveContentFinder()
    finder.feed(html)
    assert finder.found == []


def test_every_public_response_carries_the_security_headers(client):
    response = client.get("/")
    policy = response["Content-Security-Policy"]
    assert "default-src 'self'" in policy
    assert "script-src 'self'" in policy
    assert "frame-ancestors 'none'" in policy
    assert "unsafe-inline" not in policy
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "strict-origin-when-cross-origin"


def test_public_pages_have_no_inline_script_or_style(client):
    person = make_person(email="someone@example.org")
    publication = make_publication(authors=[person])
    for url in [
        "/",
        "/people/",
        person.get_absolute_url(),
        "/publications/",
        publication.get_absolute_url(),
        "/news/",
    ]:
        html = client.get(url).content.decode()
        assert "<script>" not in html, url
        assert " style=" not in html and "<style" not in html, url
        assert " onclick=" not in html and " onload=" not in html, url


@pytest.mark.parametrize("field", ["bio", "short_bio"])
def test_person_markdown_fields_are_sanitized(client, field):
    person = make_person(slug="hostile", **{field: HOSTILE})
    html = client.get(person.get_absolute_url()).content.decode()
    assert "Intro" in html and "<b>unclosed <i>tags</i></b>" in html
    assert_defused(html)


def test_publication_abstract_and_news_body_and_lab_about_are_sanitized(client):
    publication = make_publication(abstract=HOSTILE)
    item = make_news(body=HOSTILE)
    Lab.objects.filter(pk=1).update(about=HOSTILE)
    for url in [publication.get_absolute_url(), item.get_absolute_url(), "/"]:
        html = client.get(url).content.decode()
        assert "Intro" in html, url
        assert_defused(html)


def test_plain_text_fields_are_escaped(client):
    person = make_person(
        slug="escaped", name="<script>alert(1)</script>", position_title="<b>x</b>"
    )
    html = client.get(person.get_absolute_url()).content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&lt;b&gt;x&lt;/b&gt;" in html


def test_admin_login_locks_out_after_repeated_failures(client, django_user_model, settings):
    django_user_model.objects.create_superuser("editor", "e@example.org", "the-right-password")
    login = reverse("admin:login")
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        response = client.post(login, {"username": "editor", "password": "wrong"})
        assert response.status_code == 200  # the form again, with its error
    locked = client.post(login, {"username": "editor", "password": "wrong"})
    assert locked.status_code == 429
    assert "Too many failed sign-ins" in locked.content.decode()
    # Even the right password is refused while the lockout lasts.
    refused = client.post(login, {"username": "editor", "password": "the-right-password"})
    assert refused.status_code == 429
    assert "_auth_user_id" not in client.session


def test_a_successful_login_resets_the_failure_count(client, django_user_model, settings):
    django_user_model.objects.create_superuser("editor", "e@example.org", "the-right-password")
    login = reverse("admin:login")
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        client.post(login, {"username": "editor", "password": "wrong"})
    signed_in = client.post(login, {"username": "editor", "password": "the-right-password"})
    assert signed_in.status_code == 302
    client.logout()
    again = client.post(login, {"username": "editor", "password": "wrong"})
    assert again.status_code == 200


def test_healthz_reports_the_database(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok"}
    assert "no-cache" in response["Cache-Control"] or "max-age=0" in response["Cache-Control"]


def test_healthz_is_503_when_the_database_fails(client, monkeypatch):
    from django.db.backends.utils import CursorWrapper

    def broken(*args, **kwargs):
        raise DatabaseError("connection refused")

    monkeypatch.setattr(CursorWrapper, "execute", broken)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["status"] == "error"


def run_manage(*args: str, **environment: str) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if key not in {"DEBUG", "DJANGO_ENV"}}
    env.update(environment)
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=PROJECT, env=env, capture_output=True, text=True
    )


def deployment_check(**environment: str) -> subprocess.CompletedProcess:
    """`check --deploy` with production settings as the README's production snippet sets them."""
    return run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DJANGO_ENV="production",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="lab.example.org",
        AXES_PROXY_COUNT="1",
        **environment,
    )


def test_production_settings_pass_the_deployment_checklist():
    result = deployment_check()
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


def test_development_settings_fail_the_deployment_checklist():
    """The check above could fail: without DJANGO_ENV=production, HTTPS settings are off."""
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", SECRET_KEY="short")
    assert result.returncode != 0
    assert "security.W004" in result.stderr or "security.W004" in result.stdout


def test_production_refuses_debug():
    result = run_manage("check", DJANGO_ENV="production", DEBUG="1", SECRET_KEY="k" * 60)
    assert result.returncode != 0
    assert "DEBUG=1 is refused when DJANGO_ENV=production" in result.stderr
