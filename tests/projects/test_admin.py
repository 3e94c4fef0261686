"""Staff edit projects, funders and grants in the admin: editors all of them, a member (Hang)
only the projects they take part in; bad input is a form error in plain words, never a server
error."""

import pytest
from django.urls import reverse

from projects.models import Funder, Project
from tests.admin_forms import credit_rows, existing_rows, inline_management
from tests.factories import give_member_login
from tests.projects.conftest import make_project

ADD = reverse("admin:projects_project_add")


@pytest.fixture
def hang_login(lab_projects):
    return give_member_login(lab_projects["hang"], "hang")


def new_project_form(*people, grants=(), **fields) -> dict:
    """The add form with `people` (researcher ids) in order, the first as the principal
    investigator, `grants` ((funder id, award number) pairs), plus `fields`."""
    data = {
        "title": "Optical switching",
        "slug": "optical-switching",
        "is_published": "on",
        **credit_rows("people", people),
        **inline_management("grants", total=len(grants)),
        **fields,
    }
    for number in range(len(people)):
        data[f"people-{number}-role"] = "pi" if number == 0 else "researcher"
    for number, (funder, award) in enumerate(grants):
        data[f"grants-{number}-funder"] = str(funder)
        data[f"grants-{number}-award_number"] = award
    return data


def change_url(project: Project) -> str:
    return reverse("admin:projects_project_change", args=[project.pk])


def test_a_member_edits_a_project_they_take_part_in_and_not_anothers(
    client, lab_projects, hang_login
):
    client.force_login(hang_login)
    assert client.get(change_url(lab_projects["klotski"])).status_code == 200
    assert client.get(change_url(lab_projects["engines"])).status_code == 403
    listed = client.get(reverse("admin:projects_project_changelist")).text
    assert "Reconfigurable networks" in listed and "Analytical engines" not in listed


def test_a_member_adds_a_project_with_its_people_roles_and_a_grant(
    client, lab_projects, hang_login
):
    client.force_login(hang_login)
    hang, bo = lab_projects["hang"], lab_projects["bo"]
    answer = client.post(
        ADD,
        new_project_form(hang.pk, bo.pk, grants=[(lab_projects["erc"].pk, "ERC-2")], start="2025"),
    )
    assert answer.status_code == 302, answer.context["errors"]
    project = Project.objects.get(slug="optical-switching")
    assert [(row.researcher.name, row.role) for row in project.people.all()] == [
        ("Hang Zhu", "pi"),
        ("Bo Zhao", "researcher"),
    ]
    assert [str(grant) for grant in project.grants.all()] == ["European Research Council (ERC-2)"]
    assert project.history.count() >= 1


def test_a_member_cannot_leave_themself_out_of_the_people(client, lab_projects, hang_login):
    client.force_login(hang_login)
    answer = client.post(ADD, new_project_form(lab_projects["bo"].pk))
    assert answer.status_code == 200
    assert "Keep yourself among the people of the project" in answer.text
    assert not Project.objects.filter(slug="optical-switching").exists()


def test_a_project_without_people_is_refused_in_plain_words(editor_client, lab_projects):
    answer = editor_client.post(ADD, new_project_form())
    assert answer.status_code == 200
    assert "Name at least one person of the project." in answer.text


def test_an_end_before_the_start_and_a_long_award_number_are_form_errors(
    editor_client, lab_projects
):
    form = new_project_form(
        lab_projects["hang"].pk,
        grants=[(lab_projects["erc"].pk, "9" * 101)],
        start="May 2024",
        end="2023",
    )
    answer = editor_client.post(ADD, form)
    assert answer.status_code == 200
    errors = answer.context["adminform"].form.errors
    assert "cannot end before it starts" in errors["end"][0]
    assert "at most 100 characters" in answer.text
    assert not Project.objects.filter(slug="optical-switching").exists()


def test_a_malformed_funder_id_is_a_form_error_and_a_pasted_address_is_kept_bare(editor_client, db):
    add = reverse("admin:projects_funder_add")
    refused = editor_client.post(add, {"name": "Wellcome", "slug": "wellcome", "registry_id": "12"})
    assert refused.status_code == 200
    assert (
        "is not a Crossref Funder Registry id"
        in refused.context["adminform"].form.errors["registry_id"][0]
    )
    kept = editor_client.post(
        add,
        {
            "name": "Wellcome",
            "slug": "wellcome",
            "registry_id": "https://doi.org/10.13039/100004440",
        },
    )
    assert kept.status_code == 302
    assert Funder.objects.get(slug="wellcome").registry_id == "10.13039/100004440"


def test_the_pickers_of_people_papers_and_outputs_search_rather_than_list_every_row(
    editor_client, lab_projects
):
    html = editor_client.get(change_url(lab_projects["klotski"])).text
    for field in ("people-0-researcher", "publications", "outputs"):
        assert f'name="{field}"' in html
    assert html.count("admin-autocomplete") >= 3
    # The researcher picker offers the chosen person only, not every researcher.
    assert "Ada Lovelace" not in html


def test_a_member_sees_only_the_grants_of_their_projects(client, lab_projects, hang_login):
    client.force_login(hang_login)
    listed = client.get(reverse("admin:projects_grant_changelist")).text
    assert "101012345" in listed and "CNS-1234567" not in listed


def test_an_editor_sees_every_project_and_its_history(editor_client, lab_projects):
    project = make_project(title="Anyone's")
    assert editor_client.get(change_url(project)).status_code == 200
    history = reverse("admin:projects_project_history", args=[project.pk])
    assert editor_client.get(history).status_code == 200


GRANT_ADD = reverse("admin:projects_grant_add")


def test_a_member_attaches_a_grant_only_to_a_project_they_take_part_in(
    client, editor, lab_projects, hang_login
):
    """The project picker searches the member's projects only, but the posted key was checked
    against every project: a grant could land in another's "Funded by", or in no project.
    An editor may still keep a grant without a project."""
    client.force_login(hang_login)
    grant = {"funder": lab_projects["erc"].pk, "award_number": "ERC-9"}
    elsewhere = client.post(GRANT_ADD, {**grant, "project": lab_projects["engines"].pk})
    assert elsewhere.status_code == 200
    errors = elsewhere.context["adminform"].form.errors
    assert errors["project"] == ["Choose one of the projects you take part in."]
    nowhere = client.post(GRANT_ADD, {**grant, "project": ""})
    assert nowhere.status_code == 200
    assert (
        "Choose the project this grant funds"
        in nowhere.context["adminform"].form.errors["project"][0]
    )
    assert not lab_projects["engines"].grants.filter(award_number="ERC-9").exists()
    own = client.post(GRANT_ADD, {**grant, "project": lab_projects["klotski"].pk})
    assert own.status_code == 302
    assert lab_projects["klotski"].grants.filter(award_number="ERC-9").exists()
    client.force_login(editor)
    orphan = client.post(GRANT_ADD, {**grant, "award_number": "ERC-10", "project": ""})
    assert orphan.status_code == 302


def test_a_member_deletes_a_grant_neither_on_its_page_nor_from_the_project(
    client, lab_projects, hang_login
):
    """Both pages agree: only editors delete grants (a grant carries the papers that
    acknowledge it, which may be other people's)."""
    client.force_login(hang_login)
    project, grant = lab_projects["klotski"], lab_projects["grant"]
    page = client.get(change_url(project))
    assert page.status_code == 200
    assert 'name="grants-0-DELETE"' not in page.text
    people = list(project.people.order_by("position"))
    data = {
        "title": project.title,
        "slug": project.slug,
        "start": "2023-09",
        "is_published": "on",
        "summary": project.summary,
        **existing_rows("people", "project", project, people, "position", "researcher", "role"),
        **existing_rows("grants", "project", project, [grant], "funder", "award_number"),
        "grants-0-DELETE": "on",
    }
    answer = client.post(change_url(project), data)
    assert answer.status_code == 302, answer.context["errors"]
    assert project.grants.filter(pk=grant.pk).exists()
    delete = reverse("admin:projects_grant_delete", args=[grant.pk])
    assert client.post(delete, {"post": "yes"}).status_code == 403
