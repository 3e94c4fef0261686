"""An editor adds papers by identifier in the browser: pasted DOIs and arXiv ids fetched from the
services (played by tests/identifier_service.py on 127.0.0.1, serving recorded responses), and
each export format uploaded; reviewed, imported, and found on the site."""

import subprocess
import sys

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PROJECT, runserver, signed_in_page
from tests.identifier_service import DATA, recorded_services

ADD = "/admin/publications/publication/add-by-identifier/"
EXPORTS = [
    "crossref-work.json",
    "crossref-works.json",
    "openalex-author-works.json",
    "orcid-works-bulk.json",
    "orcid-works-summary.json",
    "dblp-person.xml",
    "arxiv-query.xml",
]
# What the module imports is taken away after it, so the other modules see the seeded site.
REMEMBER = "from publications.models import Publication, Venue\nprint(Publication.objects.order_by('-pk').values_list('pk', flat=True).first() or 0, Venue.objects.order_by('-pk').values_list('pk', flat=True).first() or 0)"
FORGET = """
from publications.models import Publication, Venue
Publication.objects.filter(pk__gt={publication}).delete()
Venue.objects.filter(pk__gt={venue}).delete()
"""


def manage_shell(environment: dict[str, str], script: str) -> str:
    return subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", script],
        cwd=PROJECT,
        env=environment,
        check=True,
        capture_output=True,
        text=True,
    ).stdout


@pytest.fixture(scope="module")
def fetching_site(site_url, server_environment):
    """The seeded site served again, asking the recorded services: fetching turned on, the
    services' addresses on 127.0.0.1."""
    publication, venue = manage_shell(server_environment, REMEMBER).split()[-2:]
    with recorded_services() as services:
        environment = {
            **server_environment,
            "IDENTIFIER_FETCHING": "1",
            **{f"IDENTIFIER_{name.upper()}_URL": url for name, url in services.urls().items()},
        }
        with runserver(environment) as url:
            yield url
    manage_shell(server_environment, FORGET.format(publication=publication, venue=venue))


def test_an_editor_pastes_dois_and_arxiv_ids_reviews_imports_and_finds_the_papers(
    browser, fetching_site
):
    page = signed_in_page(browser, fetching_site)
    page.goto("/admin/publications/publication/")
    page.get_by_role("link", name="Add by DOI, arXiv id, ORCID…").click()
    page.get_by_label("DOIs, arXiv ids").fill("10.1145/3603269.3604826\n1412.6980\n2101.00001\n")
    page.get_by_role("button", name="Review the entries").click()

    expect(page.locator(".import-summary")).to_have_text(
        "3 entries, 3 new, 0 likely updates, 0 duplicates."
    )
    expect(page.locator("#result_list")).to_contain_text("Scheduling Optical Circuits")
    page.get_by_role("button", name="Import all but those left out").click()
    expect(page.locator(".messagelist")).to_contain_text("Imported 3 new publications")

    page.goto("/publications/?q=Scheduling+Optical+Circuits")
    expect(page.locator(".publication", has_text="Scheduling Optical Circuits")).to_be_visible()
    page.goto("/publications/?q=Adam+Stochastic")
    expect(page.locator(".publication", has_text="Adam: A Method")).to_be_visible()
    page.context.close()


def test_an_editor_uploads_each_export_format(browser, fetching_site):
    page = signed_in_page(browser, fetching_site)
    for name in EXPORTS:
        page.goto(ADD)
        page.get_by_label("Or upload what a service exports").set_input_files(DATA / name)
        page.get_by_role("button", name="Review the entries").click()
        expect(page.locator(".import-summary")).to_contain_text("entr", timeout=20_000)
        confirm = page.get_by_role("button", name="Import all but those left out")
        if confirm.count():  # the ORCID summary repeats the full works: all duplicates by then
            confirm.click()
            expect(page.locator(".messagelist")).to_contain_text("Imported")
        else:
            expect(page.locator("#content-main")).to_contain_text("Every entry is already here")
    page.goto("/publications/?q=Networks+Are+Computers")
    expect(page.locator(".publication", has_text="Networks Are Computers")).to_be_visible()
    page.context.close()
