"""Open data in a real browser: the API's docs under the site's Content-Security-Policy, the
printable CV, and the embed snippet (a member's, and the one a group's page gives staff) on a
plain page of another origin."""

import json
import re
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from tests.browser.conftest import (
    ADD_GROUP,
    PROJECT,
    REMOVE_GROUP,
    VIEWPORTS,
    shell,
    signed_in_page,
)

BLOCKING_IMPACTS = {"serious", "critical"}
# What a host page might look like: its own font, nothing of the lab's.
HOST_PAGE = """<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>A department page</title>
<link rel="stylesheet" href="host.css"></head>
<body><main><h1>Our labs' latest papers</h1>
{snippet}
</main></body></html>
"""
HOST_CSS = 'body { font-family: "Courier New", monospace; }\n'


# What a careful host sends: its own styles and images, scripts and API calls from the lab's
# origin only, nothing inline. The embed must work inside it.
HOST_CSP = (
    "default-src 'none'; style-src 'self'; img-src 'self'; script-src {site}; "
    "connect-src {connect}; base-uri 'none'; form-action 'none'"
)


class HostPageHandler(SimpleHTTPRequestHandler):
    """Serves the host page's folder with its Content-Security-Policy, quietly."""

    def __init__(self, *args, csp: str, **kwargs):
        self.csp = csp
        super().__init__(*args, **kwargs)

    def end_headers(self):
        self.send_header("Content-Security-Policy", self.csp)
        super().end_headers()

    def log_message(self, format, *args):
        pass


@pytest.fixture(scope="module")
def context(browser, site_url):
    context = browser.new_context(viewport=VIEWPORTS["desktop"], base_url=site_url)
    yield context
    context.close()


@pytest.fixture
def page(context):
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.problems = problems = []
    page.on("console", lambda message: record_console_error(problems, message))
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("response", lambda response: record_failed_response(problems, response))
    yield page
    page.close()


def record_console_error(problems: list[str], message) -> None:
    """A refused script or style (CSP) and a script error are console errors; a failed load is
    recorded with its address by record_failed_response instead."""
    if message.type == "error" and not message.text.startswith("Failed to load resource"):
        problems.append(message.text)


def record_failed_response(problems: list[str], response) -> None:
    # Neither the site nor the test's host page has a favicon; browsers ask anyway.
    if response.status >= 400 and not response.url.endswith("/favicon.ico"):
        problems.append(f"{response.status} {response.url}")


def blocking_violations(page) -> list[str]:
    return [
        f"{violation['id']} ({violation['impact']})"
        for violation in Axe().run(page).response["violations"]
        if violation["impact"] in BLOCKING_IMPACTS
    ]


def test_the_api_docs_work_under_the_sites_csp_and_try_a_request(page):
    # Swagger UI is 1.5 MB of script: more time than a page of the site needs.
    response = page.goto("/api/docs/", wait_until="domcontentloaded", timeout=30_000)
    assert "script-src 'self'" in response.headers["content-security-policy"]
    expect(page.locator(".opblock")).to_have_count(
        19, timeout=30_000
    )  # tests/api/test_api_schema.py: OPERATIONS
    operation = page.locator("#operations-people-list_people")
    operation.locator(".opblock-summary-control").click()
    operation.get_by_role("button", name="Try it out").click()
    operation.get_by_role("button", name="Execute").click()
    status = operation.locator(".live-responses-table tr.response .response-col_status")
    expect(status).to_have_text("200")
    expect(operation.locator(".live-responses-table")).to_contain_text("hang-zhu")
    assert page.problems == [], "no script or style was refused, nothing failed to load"
    assert blocking_violations(page) == []


def test_the_printable_cv_is_accessible_and_links_its_pdf(page, site_url, server_environment):
    page.goto("/people/haoran-zhang/cv/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Haoran Zhang")
    expect(page.get_by_role("heading", name="Education")).to_be_visible()
    pdf = page.get_by_role("link", name="Download as PDF").get_attribute("href")
    # A visitor's PDF is printed by the task worker (base/pdf_renders.py): the first ask
    # queues it and says when to come back, the worker prints it, the next ask gets it.
    try:
        urllib.request.urlopen(f"{site_url}{pdf}").close()
    except urllib.error.HTTPError as refused:
        assert (refused.code, refused.headers["Retry-After"]) == (503, "10")
        subprocess.run(
            [sys.executable, "manage.py", "db_worker", "--batch", "--no-startup-delay"],
            cwd=PROJECT,
            env=server_environment,
            check=True,
            capture_output=True,
        )
    with urllib.request.urlopen(f"{site_url}{pdf}") as answer:
        assert answer.headers["Content-Type"] == "application/pdf"
        assert answer.read(5) == b"%PDF-"
    assert page.problems == []
    assert blocking_violations(page) == []


@pytest.fixture
def serve_host_page(tmp_path, site_url):
    """Serves a plain page holding the snippet (one member's, unless given) from another
    origin (another port) with the CSP `HOST_CSP` allowing API calls to `connect`; gives its
    address."""
    member_snippet = (
        '<div data-lab-publications="author=hang-zhu">'
        f'<a href="{site_url}/publications/?author=hang-zhu">Hang Zhu’s publications</a></div>\n'
        f'<script src="{site_url}/static/js/embed.js" async></script>'
    )
    (tmp_path / "host.css").write_text(HOST_CSS)
    servers = []

    def serve(*, connect: str, snippet: str = member_snippet) -> str:
        (tmp_path / "index.html").write_text(HOST_PAGE.format(snippet=snippet))
        csp = HOST_CSP.format(site=site_url, connect=connect)
        handler = partial(HostPageHandler, directory=str(tmp_path), csp=csp)
        server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}/index.html"

    yield serve
    for server in servers:
        server.shutdown()
        server.server_close()


def test_the_embed_snippet_lists_one_members_papers_on_another_sites_page(
    page, serve_host_page, site_url
):
    """Under the host's strict CSP: our script, the API's CORS answer, no inline style."""
    with urllib.request.urlopen(f"{site_url}/api/publications/?author=hang-zhu") as answer:
        expected = [paper["title"] for paper in json.load(answer)["results"]]
    assert expected

    page.goto(serve_host_page(connect=site_url))
    host = page.locator("[data-lab-publications]")
    expect(host.locator(".publication")).to_have_count(len(expected))
    assert host.locator(".publication__title").all_inner_texts() == expected
    first = host.locator(".publication__title a").first
    assert first.get_attribute("href").startswith(f"{site_url}/publications/")
    expect(host.locator("a.member", has_text="Hang Zhu").first).to_be_visible()

    host_font = page.evaluate("getComputedStyle(document.body).fontFamily")
    title_font = first.evaluate("element => getComputedStyle(element).fontFamily")
    assert "Courier New" in host_font
    assert title_font == host_font, "the list takes the host page's font"
    assert page.problems == []

    # CORS is open on the API only: the host's page may read the API, not the lab's pages.
    reads = page.evaluate(
        """urls => Promise.all(urls.map(url => fetch(url).then(() => "read", error => error.name)))""",
        [
            f"{site_url}/api/publications/?author=hang-zhu",
            f"{site_url}/publications/?author=hang-zhu",
        ],
    )
    assert reads == ["read", "TypeError"]


def test_a_host_that_forbids_calls_to_the_lab_keeps_the_link_in_place(page, serve_host_page):
    page.goto(serve_host_page(connect="'none'"))
    host = page.locator("[data-lab-publications]")
    expect(host).to_have_attribute("data-lab-error", re.compile(".+"))
    expect(host.get_by_role("link", name="Hang Zhu’s publications")).to_be_visible()
    expect(host.locator(".publication")).to_have_count(0)
    assert any("Content Security Policy" in problem for problem in page.problems), page.problems


@pytest.fixture
def research_group(server_environment):
    """The served site's research group for this test (the seed has none), removed after."""
    shell(server_environment, ADD_GROUP)
    yield "ml-systems"
    shell(server_environment, REMOVE_GROUP)


def test_the_snippet_staff_copy_from_a_group_page_lists_its_papers_on_another_site(
    browser, page, serve_host_page, site_url, research_group
):
    """The snippet as a staff member reads it on the group's page, pasted into a plain page:
    the group's papers, as the API lists them with the group's filter, newest 20."""
    staff = signed_in_page(browser, site_url)
    try:
        staff.goto(f"/groups/{research_group}/")
        details = staff.locator("details.embed-snippet")
        details.locator("summary").click()
        snippet = details.locator("pre code").inner_text()
    finally:
        staff.context.close()
    assert f'data-lab-publications="group={research_group}"' in snippet

    query = f"group={research_group}"
    with urllib.request.urlopen(f"{site_url}/api/publications/?{query}") as answer:
        data = json.load(answer)
    expected = [paper["title"] for paper in data["results"]][:20]
    assert expected

    page.goto(serve_host_page(connect=site_url, snippet=snippet))
    host = page.locator("[data-lab-publications]")
    expect(host.locator(".publication")).to_have_count(len(expected))
    assert host.locator(".publication__title").all_inner_texts() == expected
    expect(host.locator("a.member", has_text="Zerui Wang").first).to_be_visible()
    if data["count"] > len(expected):
        expect(host.get_by_role("link", name=f"All {data['count']} publications")).to_be_visible()
    assert page.problems == []
