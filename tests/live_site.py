"""The seeded site served by gunicorn on 127.0.0.1 with production-like settings (DEBUG off), and
staff who sign in and save the admin's forms over HTTP as a browser would. The server is the
HTTP benchmark's (benchmarks/http.py).

Used by the test of concurrent admin saves (tests/config/test_concurrent_admin_saves.py) and by the
load script (benchmarks/load.py).
"""

import atexit
import contextlib
import html
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from http.cookiejar import CookieJar
from pathlib import Path
from tempfile import mkdtemp
from typing import Any

PROJECT = Path(__file__).resolve().parent.parent
STAFF_PASSWORD = "a-long-live-site-password"
# True on a run that leaves out the tests of SQLite sites of their own (tests/conftest.py,
# --sqlite-sites=skip: .ci/run's PostgreSQL run). A SQLite site made then is a test missing
# from SQLITE_SITES, which would repeat the SQLite run's work and a migrate of its own.
SQLITE_SITES_LEFT_OUT = False


def site_environment(folder: Path, **overrides: str) -> dict[str, str]:
    """A SQLite site of its own in `folder`, whatever DATABASE_URL the tests run with."""
    return {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": "live-site-tests-only",
        "ALLOWED_HOSTS": "127.0.0.1",
        "DATABASE_URL": f"sqlite:///{folder / 'site.sqlite3'}",
        "STATIC_ROOT": str(folder / "static"),
        "MEDIA_ROOT": str(folder / "media"),
        # A cache of its own, not the folder every site on the machine shares by default
        # (another run's files there count towards its culling).
        "CACHE_URL": f"file://{folder / 'cache'}",
        "DJANGO_SUPERUSER_PASSWORD": STAFF_PASSWORD,
        "LOG_LEVEL": "ERROR",
        **overrides,
    }


def manage(environment: dict[str, str], *args: str, project: Path = PROJECT) -> str:
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=project,
        env=environment,
        capture_output=True,
        text=True,
    )
    if result.returncode != 0:
        raise RuntimeError(f"manage.py {' '.join(args)} failed:\n{result.stderr[-3000:]}")
    return result.stdout


def prepare_site(
    environment: dict[str, str],
    *,
    staff: list[str],
    project: Path = PROJECT,
    collect_static: bool = True,
):
    """Migrate, seed, collect static files (unless STATIC_ROOT holds them already: the tests'
    `collected_static` fixture) and create a superuser per name in `staff`."""
    migrated(environment, project=project)
    if collect_static:
        manage(environment, "collectstatic", "--noinput", project=project)
    create_staff = (
        "from django.contrib.auth.models import User\n"
        "from django.core.management import call_command\n"
        "call_command('seed', verbosity=0)\n"
        f"for name in {staff!r}:\n"
        f"    User.objects.create_superuser(name, name + '@example.org', {STAFF_PASSWORD!r})\n"
    )
    manage(environment, "shell", "-c", create_staff, project=project)


# Databases `manage.py migrate` made once in this process, copied for each site that needs one
# (migrated): one per database server.
_MIGRATED: dict[str, str] = {}


def migrated(environment: dict[str, str], *, project: Path = PROJECT) -> None:
    """The environment's database (empty or missing) holding the schema and rows `manage.py
    migrate` makes, as if migrate had just run on it.

    Migrate runs for real once per test process and database server; every later site gets a
    copy of what it made: the SQLite file copied, on PostgreSQL a database created with that
    one as its template. Running all the migrations takes 20 to 40 s on a CI machine, and a
    dozen tests each want a freshly migrated site (backups, restores, served sites); what they
    test starts after migrate, and the suite's own test database and its migration tests run
    the migrations themselves. A project other than this one is migrated for real each time.
    The suite's own test database, which pytest-django has just migrated, is kept as the
    template when it is on that server (keep_test_database_as_migrated), so most runs migrate
    for real only for the other kind of database, if at all."""
    url = environment["DATABASE_URL"]
    if project != PROJECT:
        manage(environment, "migrate", "--noinput", project=project)
        return
    if url.startswith("sqlite:"):
        if SQLITE_SITES_LEFT_OUT:
            raise RuntimeError(
                "This test makes a SQLite site of its own on a run that leaves those out: "
                "list its module in tests/conftest.py's SQLITE_SITES."
            )
        if "sqlite" not in _MIGRATED:
            template = _sqlite_template()
            manage({**environment, "DATABASE_URL": f"sqlite:///{template}"}, "migrate", "--noinput")
            _MIGRATED["sqlite"] = str(template)
        target = Path(urllib.parse.urlsplit(url).path)
        target.parent.mkdir(parents=True, exist_ok=True)
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(f"{target}{suffix}").unlink(missing_ok=True)
        shutil.copyfile(_MIGRATED["sqlite"], target)
        return
    import psycopg

    parts = urllib.parse.urlsplit(url)
    server = _postgresql_server(url)
    name = parts.path.lstrip("/")
    if server not in _MIGRATED:
        template = _postgresql_template(server)
        manage(
            {
                **environment,
                "DATABASE_URL": urllib.parse.urlunsplit(parts._replace(path=f"/{template}")),
            },
            "migrate",
            "--noinput",
        )
        _MIGRATED[server] = template
    with psycopg.connect(server, autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        connection.execute(f"CREATE DATABASE {name} TEMPLATE {_MIGRATED[server]}")


def keep_test_database_as_migrated(connection: Any) -> None:
    """The suite's test database, just migrated by pytest-django and still empty, as the
    template `migrated` copies for every site on that kind of database (in place of a
    `manage.py migrate` of its own, 20 to 40 s): both ran the same migrations, signals and
    data migrations on an empty database. SQLite's (in memory) is written to a file with
    SQLite's backup API; on PostgreSQL a database is created with it as its template, which
    needs its connection closed for a moment."""
    if connection.vendor == "sqlite":
        if "sqlite" in _MIGRATED:
            return
        template = _sqlite_template()
        connection.ensure_connection()
        with contextlib.closing(sqlite3.connect(template)) as copy:
            connection.connection.backup(copy)
        _MIGRATED["sqlite"] = str(template)
        return
    url = os.environ.get("DATABASE_URL", "")
    if connection.vendor != "postgresql" or not url.startswith(("postgres://", "postgresql://")):
        return
    server = _postgresql_server(url)
    if server in _MIGRATED:
        return
    connection.close()
    _MIGRATED[server] = _postgresql_template(server, like=connection.settings_dict["NAME"])


def _sqlite_template() -> Path:
    """Where this process keeps its migrated SQLite database, removed when it exits."""
    folder = Path(mkdtemp(prefix="migrated-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder / "site.sqlite3"


def _postgresql_server(url: str) -> str:
    """The server's own database's address: the key of its migrated template."""
    return urllib.parse.urlunsplit(urllib.parse.urlsplit(url)._replace(path="/postgres"))


def _postgresql_template(server: str, *, like: str | None = None) -> str:
    """A database of this process's own on `server`, empty or a copy of `like`, dropped when
    the process exits."""
    import psycopg

    template = f"lab_migrated_template_{os.getpid()}"
    copy = f" TEMPLATE {like}" if like else ""
    with psycopg.connect(server, autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {template} WITH (FORCE)")
        connection.execute(f"CREATE DATABASE {template}{copy}")
    atexit.register(_drop_database, server, template)
    return template


def _drop_database(server: str, name: str) -> None:
    import psycopg

    with contextlib.suppress(psycopg.Error), psycopg.connect(server, autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@contextlib.contextmanager
def served(environment: dict[str, str], folder: Path) -> Iterator[str]:
    """The site served by benchmarks/http.py's gunicorn `Server` (2 sync workers, its own
    process group) on a free port of 127.0.0.1; stopped on exit. Its log is in `folder`."""
    from benchmarks.http import BENCH_SETTINGS, Server

    server = Server(
        {**environment, "DJANGO_SETTINGS_MODULE": BENCH_SETTINGS, "PYTHONPATH": str(PROJECT)},
        folder / "copies",
    )
    try:
        yield f"http://127.0.0.1:{server.port}"
    finally:
        server.stop()


class FormReader(HTMLParser):
    """The fields one <form> posts, as a browser would: checked boxes only, selected options,
    textareas' text; file inputs are left empty."""

    def __init__(self, form_id: str):
        super().__init__(convert_charrefs=True)
        self.form_id = form_id
        self.inside = False
        self.fields: list[tuple[str, str]] = []
        self.select: str | None = None
        self.textarea: str | None = None
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        attributes = {name: value or "" for name, value in attrs}
        if tag == "form":
            self.inside = attributes.get("id") == self.form_id
        if not self.inside or not attributes.get("name") and tag != "option":
            return
        name = attributes.get("name", "")
        if tag == "input":
            kind = attributes.get("type", "text")
            if kind in ("checkbox", "radio") and "checked" not in attributes:
                return
            if kind in ("file", "submit", "button", "image", "reset"):
                return
            self.fields.append((name, attributes.get("value", "on" if kind == "checkbox" else "")))
        elif tag == "select":
            self.select = name
        elif tag == "option" and self.select and "selected" in attributes:
            self.fields.append((self.select, attributes.get("value", "")))
        elif tag == "textarea":
            self.textarea, self.text = name, []

    def handle_data(self, data):
        if self.textarea is not None:
            self.text.append(data)

    def handle_endtag(self, tag):
        if tag == "form":
            self.inside = False
        elif tag == "select":
            self.select = None
        elif tag == "textarea" and self.textarea is not None:
            # A browser drops the one line break that follows <textarea>.
            self.fields.append((self.textarea, "".join(self.text).removeprefix("\n")))
            self.textarea = None


@dataclass
class Answer:
    status: int
    body: str
    location: str = ""


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class StaffMember:
    """One signed-in admin session with its own cookies."""

    def __init__(self, url: str, username: str, password: str = STAFF_PASSWORD):
        self.url = url
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(CookieJar()), NoRedirect()
        )
        login = self.get("/admin/login/")
        answer = self.post(
            "/admin/login/",
            [
                ("csrfmiddlewaretoken", csrf_token(login.body)),
                ("username", username),
                ("password", password),
                ("next", "/admin/"),
            ],
        )
        if answer.status != 302:
            raise RuntimeError(f"{username} could not sign in: {answer.status}")

    def request(self, path: str, data: bytes | None = None) -> Answer:
        request = urllib.request.Request(self.url + path, data=data)
        if data is not None:
            request.add_header("Referer", self.url + path)
        try:
            with self.opener.open(request, timeout=60) as response:
                return Answer(response.status, response.read().decode())
        except urllib.error.HTTPError as error:
            return Answer(
                error.code, error.read().decode(errors="replace"), error.headers.get("Location", "")
            )

    def get(self, path: str) -> Answer:
        return self.request(path)

    def post(self, path: str, fields: list[tuple[str, str]]) -> Answer:
        return self.request(path, urllib.parse.urlencode(fields).encode())

    def save_change_form(self, path: str, form_id: str, change: dict[str, str]) -> Answer:
        """Open an admin change page, change some fields and press Save, as a browser would."""
        page = self.get(path)
        if page.status != 200:
            return page
        reader = FormReader(form_id)
        reader.feed(page.body)
        fields = [(name, change.get(name, value)) for name, value in reader.fields]
        return self.post(path, [*fields, ("_save", "Save")])


def csrf_token(page: str) -> str:
    match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    if not match:
        raise RuntimeError("The page has no CSRF token.")
    return html.unescape(match[1])


# What the admin's change pages are saved with, per model: the form's id and the field changed.
SAVED_MODELS = {
    "people/person": ("person_form", "short_bio"),
    "publications/publication": ("publication_form", "abstract"),
}


def change_pages(staff: StaffMember) -> list[tuple[str, str, str]]:
    """(change page, form id, field) for every person and publication the changelists show."""
    pages = []
    for model, (form_id, field) in SAVED_MODELS.items():
        listing = staff.get(f"/admin/{model}/").body
        for object_id in dict.fromkeys(re.findall(rf'href="/admin/{model}/(\d+)/change/', listing)):
            pages.append((f"/admin/{model}/{object_id}/change/", form_id, field))
    return pages


def save_concurrently(url: str, staff_names: list[str], *, saves: int) -> dict[str, int]:
    """`saves` admin saves, spread over one thread per staff member, all started at once.

    Returns how many answered each way: "saved" (the admin's redirect after a save), "refused"
    (the form came back with errors) and "error <status>"."""
    import threading
    from collections import Counter

    members = [StaffMember(url, name) for name in staff_names]
    pages = change_pages(members[0])
    outcomes: Counter[str] = Counter()
    lock = threading.Lock()
    start = threading.Barrier(len(members))

    def work(index: int, member: StaffMember) -> None:
        start.wait()
        for number in range(index, saves, len(members)):
            path, form_id, field = pages[number % len(pages)]
            answer = member.save_change_form(path, form_id, {field: f"Saved {number} times."})
            outcome = (
                "saved"
                if answer.status == 302
                else "refused"
                if answer.status == 200
                else f"error {answer.status}"
            )
            with lock:
                outcomes[outcome] += 1

    threads = [threading.Thread(target=work, args=pair) for pair in enumerate(members)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return dict(outcomes)
