"""A real server and a real browser: the site as a visitor gets it.

The server is `manage.py runserver` with DEBUG off, collected static files served by
whitenoise, its own database seeded with the four profiles, and a staff account. The browser
is Debian's Chromium driven by Playwright; no browser is downloaded.
"""

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from base.accessibility import NU, VIEWPORTS, pages_checked_by
from tests.live_site import manage, migrated
from tests.tools import chromium_path

PROJECT = Path(__file__).resolve().parents[2]
CHROMIUM = chromium_path()
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
STAFF_USER = "browser-editor"
STAFF_PASSWORD = "a-long-browser-test-password"
SCREENSHOTS = Path(os.environ.get("SCREENSHOT_DIR", PROJECT / "test-artifacts" / "screenshots"))


# The parameter values that repeat a browser test at another screen size or colour scheme than
# the desktop in light, which is the one `--browser-matrix=desktop-light` keeps.
MATRIX_REPEATS = frozenset({"phone", "dark"})


def pytest_collection_modifyitems(config, items):
    for item in items:
        if "tests/browser/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.needs("chromium"))
    if config.getoption("browser_matrix") == "desktop-light":
        repeats = [item for item in items if is_matrix_repeat(item)]
        if repeats:
            config.hook.pytest_deselected(items=repeats)
            items[:] = [item for item in items if item not in set(repeats)]


def is_matrix_repeat(item: pytest.Item) -> bool:
    """A browser test's run at the phone size or in the dark scheme (a parameter of its own,
    or one of the (size, scheme) pairs some modules' page fixtures take)."""
    params = getattr(getattr(item, "callspec", None), "params", {})
    values = [
        part
        for value in params.values()
        for part in (value if isinstance(value, tuple) else (value,))
    ]
    return "tests/browser/" in str(item.fspath) and any(
        isinstance(value, str) and value in MATRIX_REPEATS for value in values
    )


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until_serving(url: str, process: subprocess.Popen, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"The test server exited with {process.returncode}.")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"The test server did not answer at {url} within {timeout} s.")


@contextlib.contextmanager
def runserver(environment: dict[str, str]) -> Iterator[str]:
    """`manage.py runserver` on a free port of 127.0.0.1, its address while it serves."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
        cwd=PROJECT,
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_serving(f"{url}/", process)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture(scope="session")
def server_database_url(tmp_path_factory) -> str:
    """A database of the served site's own: SQLite, or on the PostgreSQL server the rest of
    the suite runs against when DATABASE_URL names one."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        yield f"sqlite:///{tmp_path_factory.mktemp('browser-db') / 'site.sqlite3'}"
        return
    import psycopg

    name = "lab_browser_tests"
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {name}")
        connection.execute(f"CREATE DATABASE {name}")
    yield urlunsplit(urlsplit(url)._replace(path=f"/{name}"))
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def site_redis_url() -> str:
    """REDIS_URL's server, in its database 1 (the tests of the cache backends use the one it
    names)."""
    url = os.environ.get("REDIS_URL", "")
    return urlunsplit(urlsplit(url)._replace(path="/1")) if url else ""


@pytest.fixture(scope="session")
def server_environment(tmp_path_factory, server_database_url, collected_static) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("browser-site")
    environment = {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": "browser-tests-only",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DATABASE_URL": server_database_url,
        "STATIC_ROOT": str(collected_static),
        "MEDIA_ROOT": str(folder / "media"),
        # The shared cache as several app servers use it: the Redis server REDIS_URL names (CI's
        # PostgreSQL run), in a database of the site's own; else a folder of its own, not the
        # default one every site on the machine shares (CI runs the SQLite and PostgreSQL
        # suites at once, and another's files there count towards culling).
        "CACHE_URL": site_redis_url() or f"file://{folder / 'cache'}",
        # Uploaded photos served by the test server itself (tests/browser/test_people_cards.py).
        "SERVE_MEDIA": "1",
        "DJANGO_SUPERUSER_PASSWORD": STAFF_PASSWORD,
        # Built after the seed, so the paper pages and the search show related papers.
        "RELATED_PAPERS_MODEL": str(folder / "related-papers.npz"),
    }
    return environment


@pytest.fixture(scope="session")
def site_url(server_environment) -> str:
    """The seeded site, served on 127.0.0.1 for the whole browser session."""
    migrated(server_environment)
    manage(server_environment, "seed")
    manage(server_environment, "build_related_papers")
    manage(
        server_environment,
        "createsuperuser",
        "--noinput",
        "--username",
        STAFF_USER,
        "--email",
        "e@example.org",
    )
    with runserver(server_environment) as url:
        yield url


# The group page the accessibility checks visit (base/accessibility.py), which ADD_GROUP makes.
GROUP = pages_checked_by(NU)["group"].path
ADD_GROUP = """
from people.models import Departure, Membership, Person, ResearchArea, ResearchGroup
group = ResearchGroup.objects.create(
    name="Machine Learning Systems", slug="ml-systems",
    short_description="Systems for training and serving large models.",
)
area = ResearchArea.objects.create(name="Machine learning systems", slug="ml-systems-area")
group.areas.add(area)
people = {person.slug: person for person in Person.objects.all()}
Membership.objects.create(group=group, person=people["hao-zhang"], role="leader")
Membership.objects.create(group=group, person=people["zerui-wang"], role="phd-student", start="2023-09")
Membership.objects.create(group=group, person=people["haoran-zhang"], role="phd-student", start="2019", end="2024")
Departure.objects.create(person=people["haoran-zhang"], last_role="Ph.D. student", next_position="NVIDIA ADLR")
"""
REMOVE_GROUP = """
from people.models import Departure, ResearchArea, ResearchGroup
ResearchGroup.objects.filter(slug="ml-systems").delete()
ResearchArea.objects.filter(slug="ml-systems-area").delete()
Departure.objects.filter(person__slug="haoran-zhang").delete()
"""


def shell(environment: dict[str, str], script: str) -> None:
    subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", script],
        cwd=PROJECT,
        env=environment,
        check=True,
        capture_output=True,
    )


@contextlib.contextmanager
def shell_rows(environment: dict[str, str], add: str, remove: str):
    """The rows the script `add` makes on the served site, while the block runs: the script
    `remove` deletes them after, even when the block fails, so that the other modules see the
    seeded site as it is."""
    shell(environment, add)
    try:
        yield
    finally:
        shell(environment, remove)


@pytest.fixture(scope="module")
def research_group(site_url, server_environment) -> str:
    """A research group (GROUP) on the served site for one module's tests, removed after its
    last test: the seed has none (fixtures/NOTES.md), and the other modules see the seeded site
    as it is. Its page lists people, publications and news."""
    with shell_rows(server_environment, ADD_GROUP, REMOVE_GROUP):
        yield "ml-systems"


# The event page the accessibility checks visit (base/accessibility.py), which ADD_EVENTS
# makes with an upcoming and a past talk: the seed has no events.
EVENT = pages_checked_by(NU)["event"].path
ADD_EVENTS = """
import datetime
from django.utils import timezone
from events.models import Event
from people.models import Person
hang = Person.objects.get(slug="hang-zhu")
soon = timezone.now().replace(microsecond=0) + datetime.timedelta(days=3)
Event.objects.create(
    title="Caching at scale", slug="caching-at-scale", speaker=hang, kind="talk",
    event_name="Systems seminar, ETH Zürich", place="CAB G 61", time_zone="Europe/Zurich",
    starts_at=soon, ends_at=soon + datetime.timedelta(hours=1),
    description="How **serverless** workflows keep their state close.",
    slides_url="https://example.org/slides.pdf", video_url="https://example.org/video",
)
for days, title, kind in [(-9, "Reading group: consensus protocols", "reading-group"),
                          (-40, "Thesis defence: scheduling large models", "defence")]:
    start = soon + datetime.timedelta(days=days)
    Event.objects.create(
        title=title, slug=title.split(": ")[1].replace(" ", "-"), kind=kind, place="Room 4.12",
        time_zone="America/New_York", starts_at=start, ends_at=start + datetime.timedelta(hours=2),
    )
"""
REMOVE_EVENTS = """
from events.models import Event
Event.objects.all().delete()
"""


@pytest.fixture(scope="module")
def lab_events(site_url, server_environment) -> str:
    """A talk to come and two past events on the served site for one module's tests, removed
    after its last test (the seed has none)."""
    with shell_rows(server_environment, ADD_EVENTS, REMOVE_EVENTS):
        yield EVENT


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


# The widths the layout's geometry is measured at (test_layout_geometry.py), in one tall window.
def gap_above_closing_link(tab, name: str) -> tuple[float, float]:
    """The space between a page's closing link ("All projects") and what stands above it,
    and the root font size, in px: a closing link stands a paragraph's 1rem below."""
    gap = tab.get_by_role("link", name=name).evaluate(
        """(link) => {
            const closing = link.closest("p");
            const above = closing.previousElementSibling.getBoundingClientRect();
            return closing.getBoundingClientRect().top - above.bottom;
        }"""
    )
    rem = tab.evaluate("parseFloat(getComputedStyle(document.documentElement).fontSize)")
    return gap, rem


WIDTHS = (390, 960, 1280, 1440)
HEIGHT = 900


def new_tab(browser, site_url: str, viewport: dict[str, int], **options):
    """A page in a browser context of its own (close `page.context` when done) that waits 10 s
    at most for what it looks for."""
    page = browser.new_context(viewport=viewport, base_url=site_url, **options).new_page()
    page.set_default_timeout(10_000)
    return page


@pytest.fixture(scope="module")
def tab(browser, site_url):
    """One tab for the module's measurements, resized for each width."""
    page = new_tab(browser, site_url, {"width": WIDTHS[-1], "height": HEIGHT})
    yield page
    page.context.close()


@pytest.fixture(params=list(VIEWPORTS))
def viewport_name(request) -> str:
    return request.param


@pytest.fixture
def page(browser, site_url, viewport_name):
    page = new_tab(browser, site_url, VIEWPORTS[viewport_name])
    yield page
    page.context.close()


BROKEN_IMAGES_SCRIPT = """async images => {
    const broken = [];
    for (const image of images) {
        image.loading = "eager";  // lazy images below the fold load too
        try { await image.decode(); } catch (error) { broken.push(image.src); continue; }
        if (image.naturalWidth === 0) broken.push(image.src);
    }
    return broken;
}"""


def broken_images(page) -> list[str]:
    """The src of each <img> on the page that does not decode into a picture."""
    return page.eval_on_selector_all("img", BROKEN_IMAGES_SCRIPT)


def screenshot(page, name: str) -> None:
    """The whole page, written to SCREENSHOTS as `name`.png."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENSHOTS / f"{name}.png", full_page=True)


def has_horizontal_scroll(page) -> bool:
    return page.evaluate(
        "document.documentElement.scrollWidth > document.documentElement.clientWidth"
    )


def signed_in_page(
    browser, site_url, username=STAFF_USER, password=STAFF_PASSWORD, viewport="desktop"
):
    """A new browser context signed in to the admin; close its `context` when done."""
    page = new_tab(browser, site_url, VIEWPORTS[viewport])
    page.goto("/admin/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Log in").click()
    return page
