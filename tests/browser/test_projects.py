"""Projects as visitors see them, on the served site: a project entry keeps most of its list's
width from phone to desktop widths (as every repeated block does, test_layout_geometry.py), the
list and a project's page pass axe in light and dark, the header keeps one row with its Projects
link, and the pages pass the Nu HTML checker. The seed has no projects (it stays true to the four
profiles): this module adds its own and removes them after its last test."""

import pytest

from base.accessibility import SCHEMES
from tests.browser.conftest import (
    HEIGHT,
    WIDTHS,
    gap_above_closing_link,
    has_horizontal_scroll,
    screenshot,
    shell_rows,
)
from tests.browser.test_html_checker import nu_errors_at
from tests.browser.test_layout_geometry import narrow_entries
from tests.browser.test_pages import blocking_violations

ADD_PROJECTS = """
from people.models import ExternalPerson, Person
from projects.models import Funder, Grant, Project, ProjectPerson
from publications.models import Publication
hang = Person.objects.get(slug="hang-zhu")
outsider = ExternalPerson.objects.create(name="Ada Outside", slug="ada-outside-projects")
paper = Publication.objects.filter(authorships__researcher=hang).first()
funder = Funder.objects.create(
    name="Browser Test Research Council", slug="browser-council",
    registry_id="10.13039/501100000999",
)
for number in range(6):
    project = Project.objects.create(
        title=f"Browser test project {number} with a title long enough to wrap on a phone",
        slug=f"browser-project-{number}",
        summary="A project *about* networks that rewire themselves.",
        start=f"202{number % 5}-09", end="2030" if number % 2 else None,
    )
    ProjectPerson.objects.create(project=project, position=1, researcher=hang, role="pi")
    ProjectPerson.objects.create(
        project=project, position=2, researcher=outsider, role="collaborator"
    )
    grant = Grant.objects.create(funder=funder, award_number=f"BT-{number}", project=project)
    grant.publications.add(paper)
    project.publications.add(paper)
"""
REMOVE_PROJECTS = """
from people.models import ExternalPerson
from projects.models import Funder, Grant, Project
Grant.objects.filter(funder__slug="browser-council").delete()
Project.objects.filter(slug__startswith="browser-project-").delete()
Funder.objects.filter(slug="browser-council").delete()
ExternalPerson.objects.filter(slug="ada-outside-projects").delete()
"""

PAGES = {"projects": "/projects/", "project": "/projects/browser-project-1/"}
# The pages that list project entries.
LISTS = {"projects": "/projects/", "profile": "/people/hang-zhu/"}


@pytest.fixture(scope="module", autouse=True)
def projects(site_url, server_environment):
    with shell_rows(server_environment, ADD_PROJECTS, REMOVE_PROJECTS):
        yield


@pytest.mark.parametrize("width", WIDTHS)
def test_every_project_entry_keeps_most_of_its_list_width(tab, width):
    tab.set_viewport_size({"width": width, "height": HEIGHT})
    assert narrow_entries(tab, LISTS, ".project", "project entry") == []


@pytest.mark.parametrize("scheme", SCHEMES)
@pytest.mark.parametrize("name", list(PAGES))
def test_the_project_pages_are_accessible_and_fit_a_phone(page, viewport_name, name, scheme):
    page.emulate_media(color_scheme=scheme)
    assert page.goto(PAGES[name]).status == 200
    page.wait_for_load_state("load")
    assert blocking_violations(page) == []
    assert not has_horizontal_scroll(page)
    screenshot(page, f"{name}-{viewport_name}-{scheme}")


def test_the_paper_page_says_who_funded_it(tab):
    tab.set_viewport_size({"width": WIDTHS[-1], "height": HEIGHT})
    tab.goto("/projects/browser-project-1/")
    tab.get_by_role("link", name="All projects").wait_for()
    paper = tab.locator("section[aria-labelledby=papers] a").first
    paper.click()
    tab.wait_for_load_state("load")
    funded = tab.locator("dt", has_text="Funded by")
    assert funded.count() == 1
    assert "Browser Test Research Council" in tab.locator("dl.facts").inner_text()


@pytest.mark.parametrize("width", [WIDTHS[0], WIDTHS[-1]])
def test_the_all_projects_link_stands_a_paragraphs_space_below_the_last_paper(tab, width):
    """A closing link after text has the paragraph's 1rem below that text (p's margin); after
    the papers' plain list, which has no margin, it sat right under the last paper."""
    tab.set_viewport_size({"width": width, "height": HEIGHT})
    tab.goto("/projects/browser-project-1/")
    gap, rem = gap_above_closing_link(tab, "All projects")
    assert gap >= rem - 0.5


@pytest.mark.parametrize("width", [width for width in WIDTHS if width >= 960])
def test_the_header_keeps_one_row_with_its_projects_link(tab, width):
    """Shown only once the site has projects, next to Events: on a wide screen the sections
    still fit the header's one row (test_header.py's 72 px)."""
    tab.set_viewport_size({"width": width, "height": HEIGHT})
    tab.goto("/")
    link = tab.get_by_role("navigation", name="Main").get_by_role("link", name="Projects")
    assert link.is_visible()
    assert tab.locator(".site-header").bounding_box()["height"] <= 72


@pytest.mark.needs("java", "vnu")
def test_the_project_pages_are_valid_html(site_url, tmp_path):
    paths = {
        **PAGES,
        "profile": "/people/hang-zhu/",
        "filtered": "/publications/?funder=browser-council",
    }
    assert nu_errors_at(site_url, paths, tmp_path) == []


ADD_EVERY_SECTION = """
import datetime, zoneinfo
from events.models import Event
from outputs.models import Output
from people.models import Person, ResearchArea, ResearchGroup
ResearchGroup.objects.create(name="Header Group", slug="header-group", is_published=True)
ResearchArea.objects.create(name="Header Area", slug="header-area", is_published=True)
Event.objects.create(
    title="Header talk", slug="header-talk", kind="talk", is_published=True,
    speaker=Person.objects.get(slug="hang-zhu"), time_zone="UTC",
    starts_at=datetime.datetime(2030, 1, 5, 15, tzinfo=zoneinfo.ZoneInfo("UTC")),
    ends_at=datetime.datetime(2030, 1, 5, 16, tzinfo=zoneinfo.ZoneInfo("UTC")),
)
Output.objects.create(title="Header tool", slug="header-tool", kind="software", is_published=True)
"""
REMOVE_EVERY_SECTION = """
from events.models import Event
from outputs.models import Output
from people.models import ResearchArea, ResearchGroup
Event.objects.filter(slug="header-talk").delete()
Output.objects.filter(slug="header-tool").delete()
ResearchArea.objects.filter(slug="header-area").delete()
ResearchGroup.objects.filter(slug="header-group").delete()
"""
EVERY_SECTION = (
    "People", "Groups", "Areas", "Publications", "News", "Events", "Projects", "Data & software"
)  # fmt: skip


@pytest.fixture
def every_section(server_environment):
    with shell_rows(server_environment, ADD_EVERY_SECTION, REMOVE_EVERY_SECTION):
        yield


@pytest.mark.parametrize("width", [width for width in WIDTHS if width >= 1280])
def test_with_every_section_the_header_keeps_one_row_on_a_wide_screen(tab, every_section, width):
    """A department with groups, areas, talks, projects, and datasets and software: the header
    offers its eight sections and still takes one row (the search box leaves them room)."""
    tab.set_viewport_size({"width": width, "height": HEIGHT})
    tab.goto("/")
    navigation = tab.get_by_role("navigation", name="Main")
    links = navigation.get_by_role("link")
    assert links.all_inner_texts() == list(EVERY_SECTION)
    tops = {round(box["y"]) for box in (link.bounding_box() for link in links.all())}
    assert len(tops) == 1, tops
    assert tab.locator(".site-header").bounding_box()["height"] <= 72
