"""Datasets and software as visitors see them, on the served site: an output entry keeps most
of its list's width at phone and desktop widths (as every repeated block does,
test_layout_geometry.py), and the list and both kinds of page pass axe and the Nu HTML
checker. The seed has no outputs (it stays true to the four profiles): this module adds its own
and removes them after its last test, and a talk on the paper the outputs belong to."""

import pytest

from tests.browser.conftest import HEIGHT, WIDTHS, has_horizontal_scroll, shell_rows
from tests.browser.test_html_checker import nu_errors_at
from tests.browser.test_layout_geometry import narrow_entries
from tests.browser.test_pages import blocking_violations

ADD_OUTPUTS = """
from outputs.models import Output, OutputCreator
from people.models import ExternalPerson, Person
from publications.models import Publication
hang = Person.objects.get(slug="hang-zhu")
outsider = ExternalPerson.objects.create(name="Ada Outside", slug="ada-outside-outputs")
paper = Publication.objects.get(slug="klotski")
import datetime
from django.utils import timezone
from events.models import Event
start = timezone.now().replace(microsecond=0) - datetime.timedelta(days=3)
talk = Event.objects.create(
    title="Klotski, presented with a title long enough to wrap on a phone",
    slug="browser-outputs-talk", speaker=hang, event_name="NSDI", place="Santa Clara",
    starts_at=start, ends_at=start + datetime.timedelta(hours=1), time_zone="America/Los_Angeles",
)
talk.publications.add(paper)
for number in range(6):
    output = Output.objects.create(
        kind="software" if number % 2 else "dataset",
        title=f"Browser test output {number} with a title long enough to wrap on a phone",
        slug=f"browser-output-{number}",
        version="1.0.0", licence="MIT", url="https://example.org/tool",
        doi=f"10.5281/zenodo.{1000 + number}", released=f"202{number % 5}-05",
    )
    OutputCreator.objects.create(output=output, position=1, researcher=hang)
    OutputCreator.objects.create(output=output, position=2, researcher=outsider)
    output.publications.add(paper)
"""
REMOVE_OUTPUTS = """
from events.models import Event
Event.objects.filter(slug="browser-outputs-talk").delete()
from outputs.models import Output
from people.models import ExternalPerson
Output.objects.filter(slug__startswith="browser-output-").delete()
ExternalPerson.objects.filter(slug="ada-outside-outputs").delete()
"""

PAGES = {
    "outputs": "/outputs/",
    "software": "/outputs/browser-output-1/",
    "dataset": "/outputs/browser-output-0/",
    # The paper's page with its datasets and software and its talks.
    "paper": "/publications/klotski/",
}
# The pages that list output entries.
LISTS = {"outputs": "/outputs/", "profile": "/people/hang-zhu/"}


@pytest.fixture(scope="module", autouse=True)
def outputs(site_url, server_environment):
    with shell_rows(server_environment, ADD_OUTPUTS, REMOVE_OUTPUTS):
        yield


@pytest.mark.parametrize("width", WIDTHS)
def test_every_output_entry_keeps_most_of_its_list_width(tab, width):
    tab.set_viewport_size({"width": width, "height": HEIGHT})
    assert narrow_entries(tab, LISTS, ".output", "output entry") == []


@pytest.mark.parametrize("name", list(PAGES))
def test_the_output_pages_are_accessible_and_fit_a_phone(page, name):
    assert page.goto(PAGES[name]).status == 200
    page.wait_for_load_state("load")
    assert blocking_violations(page) == []
    assert not has_horizontal_scroll(page)


@pytest.mark.needs("java", "vnu")
def test_the_output_pages_are_valid_html(site_url, tmp_path):
    assert nu_errors_at(site_url, {**PAGES, "profile": "/people/hang-zhu/"}, tmp_path) == []
