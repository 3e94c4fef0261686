"""Funders, projects and grants refuse bad input with a sentence a staff member can act on."""

import datetime

import pytest
from django.core.exceptions import ValidationError

from projects.models import AWARD_NUMBER_MAX, Funder, Grant, Project
from tests.projects.conftest import make_funder, make_project


@pytest.mark.parametrize(
    "typed",
    [
        "10.13039/501100000780",
        "https://doi.org/10.13039/501100000780",
        "http://dx.doi.org/10.13039/501100000780",
        "doi:10.13039/501100000780",
        "  https://DOI.org/10.13039/501100000780 ",
    ],
)
def test_a_funder_id_pasted_in_any_usual_form_is_stored_as_the_bare_doi(db, typed):
    funder = Funder(name="European Commission", slug="ec", registry_id=typed)
    funder.full_clean()
    assert funder.registry_id == "10.13039/501100000780"


@pytest.mark.parametrize(
    "typed", ["10.1000/182", "501100000780", "10.13039/", "10.13039/abc", "https://example.org/x"]
)
def test_a_malformed_funder_id_is_refused_with_a_sentence(db, typed):
    funder = Funder(name="Somebody", slug="somebody", registry_id=typed)
    with pytest.raises(ValidationError) as refused:
        funder.full_clean()
    (message,) = refused.value.message_dict["registry_id"]
    assert "Crossref Funder Registry id" in message and "10.13039/" in message


def test_two_funders_cannot_share_a_registry_id_but_many_may_have_none(db):
    make_funder(registry_id="10.13039/100000001")
    make_funder()
    make_funder()
    twin = Funder(
        name="NSF again", slug="nsf-again", registry_id="https://doi.org/10.13039/100000001"
    )
    with pytest.raises(ValidationError) as refused:
        twin.full_clean()
    assert "already has this Crossref Funder Registry id" in str(refused.value)


def test_a_project_that_ends_before_it_starts_is_refused_on_the_end(db):
    project = Project(title="Backwards", slug="backwards", start="2024-05", end="2023")
    with pytest.raises(ValidationError) as refused:
        project.full_clean()
    assert "cannot end before it starts" in " ".join(refused.value.message_dict["end"])


def test_a_project_may_end_in_the_year_it_starts_at_a_coarser_precision(db):
    Project(title="Short", slug="short", start="2024-05", end="2024").full_clean()


def test_an_award_number_longer_than_the_bound_is_refused(db):
    grant = Grant(funder=make_funder(), award_number="9" * (AWARD_NUMBER_MAX + 1))
    with pytest.raises(ValidationError) as refused:
        grant.full_clean()
    assert "award_number" in refused.value.message_dict


def test_a_funder_names_an_award_number_once(db):
    funder = make_funder()
    Grant.objects.create(funder=funder, award_number="EP/X1")
    with pytest.raises(ValidationError) as refused:
        Grant(funder=funder, award_number="EP/X1").full_clean()
    assert "already has a grant with this award number" in str(refused.value)
    Grant(funder=make_funder(), award_number="EP/X1").full_clean()


@pytest.mark.parametrize(
    ("end", "past"),
    [
        (None, False),
        ("2026", False),  # current all through its last year
        ("2026-12", False),
        ("2026-12-05", False),
        ("2026-12-04", True),
        ("2026-11", True),
        ("2025", True),
        ("2025-12-31", True),
    ],
)
def test_a_project_is_past_once_its_end_at_its_precision_is_over(db, end, past):
    today = datetime.date(2026, 12, 5)
    project = make_project(start="2020", end=end)
    assert project.is_past(today) is past
    assert Project.objects.past(today).filter(pk=project.pk).exists() is past
    assert Project.objects.current(today).filter(pk=project.pk).exists() is not past
