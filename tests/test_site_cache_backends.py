"""The page cache on the backends a deployment uses: a folder of files (the default, shared by
one machine's app server processes) and Redis (shared by several machines), against a real
redis-server. Without one, these tests start their own; in CI `.ci/run` starts it and sets
REDIS_URL, and a missing server fails the run instead of skipping."""

import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from contextlib import closing
from pathlib import Path
from urllib.parse import quote

import pytest
from django.db import connection
from django.test import Client

from directory import site_cache
from directory.models import Lab
from publications.models import Publication
from tests.factories import make_publication

PROJECT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory):
    """REDIS_URL when set (CI), else a redis-server of our own on 127.0.0.1, stopped after."""
    if url := os.environ.get("REDIS_URL"):
        yield url
        return
    binary = os.environ.get("REDIS_SERVER_PATH") or shutil.which("redis-server")
    if binary is None or not os.access(binary, os.X_OK):
        message = "redis-server is not installed: apt-get install redis-server"
        if os.environ.get("CI"):
            pytest.fail(f"{message} (CI must run the Redis tests; .ci/run starts one)")
        pytest.skip(message)
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


def manage(*arguments: str, environment: dict) -> None:
    subprocess.run(
        [sys.executable, "manage.py", *arguments],
        cwd=PROJECT,
        env=environment,
        check=True,
        capture_output=True,
        timeout=120,
    )


def get(port: int, path: str, headers: dict | None = None):
    """As through a load balancer: the same Host header whichever server answers."""
    headers = {"Host": "127.0.0.1", **(headers or {})}
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.headers, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, ""


@pytest.mark.django_db(transaction=True)
def test_two_app_servers_share_pages_and_see_each_others_edits(redis_url, tmp_path):
    """Two servers, one database and one Redis: a page one renders, the other serves; an edit
    made by a third process reaches both on their next request."""
    Lab.objects.current()
    make_publication(title="Klotski", slug="klotski", authors=["Hang Zhu"])
    environment = {
        **{key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"},
        "DATABASE_URL": served_database_url(tmp_path),
        "CACHE_URL": redis_url,
        "SITE_RELEASE": f"test-{os.getpid()}-{time.time_ns()}",
        "SECRET_KEY": "test-only-" + "x" * 40,
        "DEBUG": "1",
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
        assert get(second, "/publications/", {"If-None-Match": headers["ETag"]})[0] == 304

        edit = (
            "from publications.models import Publication; "
            "p = Publication.objects.get(slug='klotski'); p.title = 'Klotski Revisited'; p.save()"
        )
        manage("shell", "-c", edit, environment=environment)

        for port in ports:
            status, fresh, body = get(
                port, "/publications/klotski/", {"If-None-Match": headers["ETag"]}
            )
            assert status == 200 and "Klotski Revisited" in body
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=10)


def run_redis_test_without_redis(**environment) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if key not in ("CI", "REDIS_URL")}
    env.update(REDIS_SERVER_PATH="/nonexistent/redis-server", **environment)
    test = f"{Path(__file__).name}::{test_the_redis_server_answers.__name__}"
    return subprocess.run(
        [sys.executable, "-m", "pytest", f"tests/{test}", "-q", "-rs", "-p", "no:randomly"],
        cwd=PROJECT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_without_redis_the_redis_tests_skip_with_advice_but_fail_in_ci():
    result = run_redis_test_without_redis()
    assert result.returncode == 0, result.stdout
    assert "1 skipped" in result.stdout and "apt-get install redis-server" in result.stdout

    result = run_redis_test_without_redis(CI="true")
    assert result.returncode != 0
    assert "CI must run the Redis tests" in result.stdout
