"""The kept values projects and funding show through (base/caches.py: "section-projects" on
profiles, groups and areas; the paper page's kept parts; the publication list's counts): a
write of a project, a grant or a funder reaches the next request.

These tests commit for real (transaction=True): the change stamp moves when a transaction
commits, as on a live site. The page cache is off so that every request renders its page, and
only the kept values are reused."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from projects.models import Funder, Grant, Project

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("rendered_anew")]

PROFILE = "/people/hang-zhu/"
PAPER = "/publications/klotski/"


def test_a_profile_keeps_its_projects_until_one_changes(client, lab_projects):
    assert "Reconfigurable networks" in client.get(PROFILE).text
    with CaptureQueriesContext(connection) as again:
        client.get(PROFILE)
    # Kept: no query reads them (the header's lab row only asks whether any exists).
    assert not [q for q in again if q["sql"].startswith('SELECT "projects_project"')]

    project = lab_projects["klotski"]
    project.title = "Rewiring networks"
    project.save()
    assert "Rewiring networks" in client.get(PROFILE).text

    Project.objects.filter(pk=project.pk).update(is_published=False)  # a bulk write too
    assert "Rewiring networks" not in client.get(PROFILE).text


def test_a_grant_or_a_funder_written_reaches_the_paper_page_and_the_lists(client, lab_projects):
    assert "award 101012345" in client.get(PAPER).text
    client.get("/publications/")
    grant = lab_projects["grant"]
    grant.award_number = "101099999"
    grant.save()
    assert "award 101099999" in client.get(PAPER).text

    Funder.objects.filter(pk=lab_projects["erc"].pk).update(name="ERC Executive Agency")
    assert "ERC Executive Agency" in client.get(PAPER).text
    assert "ERC Executive Agency" in client.get("/publications/").text
    assert "ERC Executive Agency" in client.get("/projects/").text

    nsf_grant = Grant.objects.get(award_number="CNS-1234567")
    nsf_grant.publications.add(lab_projects["paper"])
    assert "CNS-1234567" in client.get(PAPER).text
    funders = client.get("/publications/").context["facets"]["funder"]
    assert {option.value: option.count for option in funders.options} == {"erc": 1, "nsf": 1}
    grant.publications.remove(lab_projects["paper"])
    assert "101099999" not in client.get(PAPER).text
