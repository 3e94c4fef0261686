import pytest
from django.core.exceptions import ValidationError
from django.db.models import ProtectedError

from outputs.models import Output
from tests.outputs.conftest import make_output


def full_clean_errors(output: Output) -> dict[str, list[str]]:
    with pytest.raises(ValidationError) as raised:
        output.full_clean()
    return raised.value.message_dict


@pytest.mark.django_db
def test_a_licence_that_is_not_an_spdx_identifier_is_refused_in_plain_words():
    output = Output(title="Traces", slug="traces", licence="Free for research")
    errors = full_clean_errors(output)
    assert errors["licence"] == [
        "“Free for research” is not a licence this site knows. Write its SPDX identifier as "
        "spdx.org/licenses lists it, e.g. “MIT”, “Apache-2.0” or “CC-BY-4.0”."
    ]


@pytest.mark.django_db
def test_a_licence_typed_in_another_case_is_stored_as_spdx_spells_it():
    output = Output(title="Traces", slug="traces", licence="cc-by-4.0")
    output.full_clean()
    assert output.licence == "CC-BY-4.0"


@pytest.mark.django_db
def test_a_doi_pasted_as_its_address_is_stored_bare_and_a_wrong_one_is_refused():
    output = Output(title="Traces", slug="traces", doi="https://doi.org/10.5281/zenodo.99")
    output.full_clean()
    assert output.doi == "10.5281/zenodo.99"
    output.doi = "zenodo 99"
    assert "is not a DOI" in full_clean_errors(output)["doi"][0]


@pytest.mark.django_db
def test_a_release_date_is_as_precise_as_known():
    output = make_output(released="May 2023")
    output.refresh_from_db()
    assert output.released.isoformat() == "2023-05"
    assert output.year == 2023


@pytest.mark.django_db
def test_a_slug_the_feed_address_takes_is_refused():
    errors = full_clean_errors(Output(title="Feed", slug="feed"))
    assert "/outputs/feed/ is already the address of another page" in errors["slug"][0]


def test_creators_are_researchers_members_and_outsiders_alike_in_order(lab_outputs):
    dataset = Output.objects.for_listing().get(slug="klotski-traces")
    assert dataset.creator_names == ["Bo Zhao", "Hang Zhu"]
    assert [creator.member for creator in dataset.creators.all()] == [None, lab_outputs["hang"]]


def test_a_person_who_created_an_output_cannot_be_deleted_from_under_it(lab_outputs):
    with pytest.raises(ProtectedError):
        lab_outputs["bo"].delete()


def test_outputs_by_a_member_and_the_papers_they_belong_to_read_both_ways(lab_outputs):
    hang, paper = lab_outputs["hang"], lab_outputs["paper"]
    assert set(Output.objects.by(hang)) == {lab_outputs["software"], lab_outputs["dataset"]}
    assert set(paper.outputs.all()) == {lab_outputs["software"], lab_outputs["dataset"]}
    assert set(Output.objects.related_to(paper)) == set(paper.outputs.all())


def test_a_member_previews_their_own_draft_and_not_anothers(lab_outputs, django_user_model):
    hang = lab_outputs["hang"]
    login = django_user_model.objects.create_user("hang", password="pw", is_staff=True)
    hang.user = login
    hang.save()
    mine = make_output(is_published=False, creators=[hang])
    theirs = make_output(is_published=False, creators=[lab_outputs["bo"]])
    visible = set(Output.objects.visible_to(login))
    assert mine in visible and theirs not in visible


def test_a_change_is_kept_in_the_history(lab_outputs):
    software = lab_outputs["software"]
    software.version = "1.3.0"
    software.save()
    versions = [record.version for record in software.history.all()]
    # The first save, then one for the related papers added, then the edit.
    assert versions[0] == "1.3.0" and set(versions[1:]) == {"1.2.0"}
