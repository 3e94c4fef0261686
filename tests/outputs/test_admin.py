"""Staff edit datasets and software in the admin: editors all of them, a member (Hang) only
those they created; bad input is a form error in plain words, never a server error."""

import pytest
from django.urls import reverse

from outputs.models import Output
from tests.admin_forms import credit_rows
from tests.factories import give_member_login
from tests.outputs.conftest import make_output, make_outsider


@pytest.fixture
def hang_login(lab_outputs):
    return give_member_login(lab_outputs["hang"], "hang")


def new_output_form(*creators, **fields) -> dict:
    """The add form with `creators` (researcher ids) in order, plus `fields`."""
    return {
        "kind": "software",
        "title": "Ring buffer",
        "slug": "ring-buffer",
        "is_published": "on",
        **credit_rows("creators", creators),
        **fields,
    }


ADD = reverse("admin:outputs_output_add")


def change_url(output: Output) -> str:
    return reverse("admin:outputs_output_change", args=[output.pk])


def test_a_member_edits_an_output_they_created_and_not_anothers(client, lab_outputs, hang_login):
    theirs = make_output(title="Bo's tool", creators=[lab_outputs["bo"]])
    client.force_login(hang_login)
    assert client.get(change_url(lab_outputs["software"])).status_code == 200
    assert client.get(change_url(theirs)).status_code == 403
    listed = client.get(reverse("admin:outputs_output_changelist")).text
    assert "Klotski simulator" in listed and "Bo&#x27;s tool" not in listed


def test_a_member_adds_an_output_naming_themself_among_its_creators(
    client, lab_outputs, hang_login
):
    client.force_login(hang_login)
    hang, bo = lab_outputs["hang"], lab_outputs["bo"]
    answer = client.post(ADD, new_output_form(bo.pk, hang.pk, licence="apache-2.0"))
    assert answer.status_code == 302, answer.context["errors"]
    output = Output.objects.for_listing().get(slug="ring-buffer")
    assert output.creator_names == ["Bo Zhao", "Hang Zhu"]
    assert output.licence == "Apache-2.0"
    assert output.history.count() >= 1


def test_a_member_cannot_leave_themself_out_of_the_creators(client, lab_outputs, hang_login):
    client.force_login(hang_login)
    answer = client.post(ADD, new_output_form(lab_outputs["bo"].pk))
    assert answer.status_code == 200
    assert (
        "Keep yourself among the creators: you can only edit datasets and software you made."
        in answer.text
    )
    assert not Output.objects.filter(slug="ring-buffer").exists()


def test_an_output_without_creators_is_refused_in_plain_words(editor_client, lab_outputs):
    answer = editor_client.post(ADD, new_output_form())
    assert answer.status_code == 200
    assert "Name at least one creator: the people who made it." in answer.text


def test_a_bad_licence_doi_and_date_are_each_a_form_error_on_their_field(
    editor_client, lab_outputs
):
    form = new_output_form(
        lab_outputs["hang"].pk, licence="GPL", doi="not a doi", released="31 Feb 2024"
    )
    answer = editor_client.post(ADD, form)
    assert answer.status_code == 200
    errors = answer.context["adminform"].form.errors
    assert "is not a licence this site knows" in errors["licence"][0]
    assert "is not a DOI" in errors["doi"][0]
    assert "released" in errors
    assert not Output.objects.filter(slug="ring-buffer").exists()


def test_an_editor_sees_every_output_and_its_history(editor_client, lab_outputs):
    software = lab_outputs["software"]
    assert editor_client.get(change_url(software)).status_code == 200
    history = reverse("admin:outputs_output_history", args=[software.pk])
    assert editor_client.get(history).status_code == 200


AUTOCOMPLETE = reverse("admin:autocomplete")


def test_the_creator_picker_is_an_autocomplete_not_a_select_of_every_researcher(
    editor_client, lab_outputs
):
    for number in range(12):
        make_outsider(name=f"Unrelated Person {number}")
    page = editor_client.get(change_url(lab_outputs["software"])).text
    assert "Unrelated Person" not in page  # no option per researcher
    assert 'data-field-name="researcher"' in page and "admin-autocomplete" in page
    # The chosen creators keep their names, without a lookup of every researcher.
    assert ">Hang Zhu</option>" in page and ">Bo Zhao</option>" in page
    # What it asks as a name is typed: the hidden ResearcherAdmin's search, as for author rows.
    found = editor_client.get(
        AUTOCOMPLETE,
        {
            "term": "zha",
            "app_label": "outputs",
            "model_name": "outputcreator",
            "field_name": "researcher",
        },
    ).json()["results"]
    assert [result["text"] for result in found] == ["Bo Zhao"]
