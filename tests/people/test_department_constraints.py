"""The department's named constraints hold in the database itself (SQLite and PostgreSQL alike),
and the admin's validation reports each with a plain message before the database would refuse."""

import pytest
from django.apps import apps
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction

from base.partial_dates import PartialDate
from people.models import (
    Advising,
    Collaboration,
    Departure,
    Education,
    ExternalPerson,
    Membership,
    Person,
    Researcher,
    validate_orcid,
)
from publications.models import Authorship
from tests.department import make_external, make_membership, make_research_group
from tests.factories import make_person, make_publication

pytestmark = pytest.mark.django_db

NAMED_CONSTRAINTS = {
    Membership: [
        "membership_one_current_per_group_and_person",
        "membership_ends_after_it_starts",
    ],
    # One table for members and outsiders: one rule for each identifier (stage 2).
    Researcher: ["researcher_orcid_unique", "researcher_dblp_unique"],
    Advising: [
        "advising_unique_position",
        "advising_advisor_is_not_the_advisee",
        "advising_ends_after_it_starts",
    ],
    Collaboration: [
        "collaboration_unique_position",
        "collaboration_not_with_oneself",
    ],
    Departure: ["departure_thesis_link_has_a_title"],
}


def refused(name: str, *, unique: bool = False):
    """The database refuses a row with the constraint `name`. SQLite names the columns of a
    broken unique index instead of the index, so there only the kind of failure is checked."""
    if unique and connection.vendor == "sqlite":
        return pytest.raises(IntegrityError, match="UNIQUE constraint failed")
    return pytest.raises(IntegrityError, match=name)


@pytest.mark.parametrize(
    ("model", "name"),
    [(model, name) for model, names in NAMED_CONSTRAINTS.items() for name in names],
)
def test_each_constraint_is_in_the_database_under_its_name(model, name):
    table = model._meta.db_table
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            # Django's SQLite introspection cannot parse a CHECK with nested calls; the
            # schema's own text names every constraint and index.
            cursor.execute("SELECT name, sql FROM sqlite_master WHERE tbl_name = %s", [table])
            schema = " ".join(f"{index} {sql}" for index, sql in cursor.fetchall())
            assert f'"{name}"' in schema or f"{name} " in schema
        else:
            assert name in connection.introspection.get_constraints(cursor, table)


def test_a_person_is_a_current_member_of_a_group_once_but_may_rejoin():
    person, group = make_person(), make_research_group()
    make_membership(person, group, start="2019", end="2020")
    make_membership(person, group, start="2022")
    with refused("membership_one_current_per_group_and_person", unique=True), transaction.atomic():
        make_membership(person, group, role=Membership.Role.POSTDOC)
    make_membership(person, make_research_group())  # another group at the same time


@pytest.mark.parametrize(
    ("start", "end", "allowed"),
    [
        ("2022-05", "2022", True),  # "May 2022 – 2022": the end is the coarser date
        ("2022", "2022-01", True),
        ("2021-12", "2022", True),
        ("2022", "2021-12", False),
        ("2022-05", "2022-03", False),
        (None, "2020", True),
        ("2020", None, True),
    ],
)
def test_a_membership_cannot_end_before_it_starts_at_the_coarser_precision(start, end, allowed):
    person, group = make_person(), make_research_group()
    if allowed:
        make_membership(person, group, start=start, end=end)
        return
    with refused("membership_ends_after_it_starts"), transaction.atomic():
        make_membership(person, group, start=start, end=end)


def test_the_period_check_is_a_plain_message_in_a_form():
    membership = Membership(
        person=make_person(), group=make_research_group(), start="2022", end="2021"
    )
    with pytest.raises(ValidationError, match="cannot end before it starts"):
        membership.full_clean()


def test_an_author_row_names_a_member_or_an_external_person_by_its_one_key():
    """Stage 3: the member key and the outsider key were two columns, held apart by a CHECK;
    one key to the researcher names either, and naming one replaces the other."""
    member, record = make_person(), make_external()
    publication = make_publication(authors=["Someone"])
    row = publication.authorships.get()
    row.person = member
    row.external = record
    row.save()
    row = Authorship.objects.select_related("researcher__profile").get(pk=row.pk)
    assert (row.researcher_id, row.person, row.external) == (record.pk, None, record)


def test_advising_names_one_advisor_a_member_or_an_outsider_by_one_key():
    advisee, advisor, record = make_person(), make_person(), make_external()
    with pytest.raises(IntegrityError, match="advisor_id"), transaction.atomic():
        Advising.objects.create(advisee=advisee, position=1)
    Advising.objects.create(advisee=advisee, position=1, advisor=advisor)
    Advising.objects.create(advisee=advisee, position=2, advisor=record)
    with refused("advising_unique_position", unique=True), transaction.atomic():
        Advising.objects.create(advisee=advisee, position=2, advisor=record)
    rows = Advising.objects.select_related("advisor__profile").order_by("position")
    assert [row.advisor_record for row in rows] == [advisor, record]
    assert isinstance(rows[1].advisor_record, ExternalPerson)


def test_nobody_advises_themselves_and_advising_keeps_its_dates_in_order():
    person = make_person()
    with refused("advising_advisor_is_not_the_advisee"), transaction.atomic():
        Advising.objects.create(advisee=person, advisor=person)
    with refused("advising_ends_after_it_starts"), transaction.atomic():
        Advising.objects.create(advisee=person, advisor=make_external(), start="2020", end="2019")


def test_an_advisings_degree_must_be_the_advisees_own():
    advisee, other = make_person(), make_person()
    degree = Education.objects.create(person=other, position=1, institution="Elsewhere")
    advising = Advising(advisee=advisee, advisor=make_external(), degree=degree)
    with pytest.raises(ValidationError, match="advisee's own degrees"):
        advising.full_clean()


def test_a_close_collaborator_is_one_other_person():
    person = make_person()
    with pytest.raises(IntegrityError, match="collaborator_id"), transaction.atomic():
        Collaboration.objects.create(person=person, position=1)
    with refused("collaboration_not_with_oneself"), transaction.atomic():
        Collaboration.objects.create(person=person, position=1, collaborator=person)
    Collaboration.objects.create(person=person, position=1, collaborator=make_external())
    with refused("collaboration_unique_position", unique=True), transaction.atomic():
        Collaboration.objects.create(person=person, position=1, collaborator=make_person())


def test_an_orcid_or_dblp_identifier_names_one_record_and_blank_ones_are_many():
    make_external(orcid="0000-0002-1825-0097", dblp="84/2427")
    make_external()
    make_external()  # two records without identifiers
    with refused("researcher_orcid_unique", unique=True), transaction.atomic():
        make_external(orcid="0000-0002-1825-0097")
    with refused("researcher_dblp_unique", unique=True), transaction.atomic():
        make_external(dblp="84/2427")
    duplicate = ExternalPerson(name="Again", slug="again", orcid="0000-0002-1825-0097")
    with pytest.raises(ValidationError, match="merge the two instead"):
        duplicate.full_clean()


@pytest.mark.parametrize(
    ("orcid", "valid"),
    [
        ("0000-0002-1825-0097", True),
        ("0000-0001-5109-3700", True),
        ("0000-0002-1694-233X", True),
        ("0000-0002-1825-0098", False),  # wrong check digit
        ("0000-0002-1825-009", False),
        ("https://orcid.org/0000-0002-1825-0097", False),
    ],
)
def test_an_orcid_is_checked_by_its_check_digit(orcid, valid):
    if valid:
        validate_orcid(orcid)
    else:
        with pytest.raises(ValidationError):
            validate_orcid(orcid)


def test_a_thesis_link_needs_its_title():
    person = make_person()
    with refused("departure_thesis_link_has_a_title"), transaction.atomic():
        Departure.objects.create(
            person=person, last_role="PhD student", thesis_url="https://example.org/t.pdf"
        )
    departure = Departure.objects.create(
        person=person, last_role="PhD student", left=PartialDate(2024, 7)
    )
    assert str(Departure.objects.get(pk=departure.pk).left) == "Jul 2024"


def test_no_model_holds_a_member_key_beside_an_outsider_key():
    """Stage 3: author, advisor and collaborator rows each name their human by one key to the
    researcher; no model keeps a key to the outsiders (a proxy of the researchers) beside one
    to the members."""

    def keys_to(model, target) -> bool:
        return any(
            field.many_to_one and field.related_model is target
            for field in model._meta.get_fields()
        )

    pairs = [
        model._meta.label
        for model in apps.get_models()
        if keys_to(model, ExternalPerson) and keys_to(model, Person)
    ]
    assert pairs == []
