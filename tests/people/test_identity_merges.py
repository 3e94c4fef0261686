"""Merging two records of one external person, splitting wrongly linked author rows off a
record, and undoing either: every row goes back where it was."""

import pytest

from people.models import Advising, Collaboration, ExternalPerson, IdentityChange
from people.services import (
    IdentityChangeRefused,
    merge_external_people,
    split_author_rows,
    undo_identity_change,
)
from publications.models import Authorship
from publications.services import link_authors
from tests.department import make_external
from tests.factories import make_person, make_publication

pytestmark = pytest.mark.django_db

RECORD_FIELDS = ["id", "name", "slug", "aliases", "affiliation", "orcid", "dblp", "homepage"]


def snapshot() -> dict:
    """Where every author row, advising link and collaboration points, and every record."""
    return {
        "authors": dict(Authorship.objects.values_list("pk", "researcher")),
        "advisors": dict(Advising.objects.values_list("pk", "advisor")),
        "collaborators": dict(Collaboration.objects.values_list("pk", "collaborator")),
        "records": list(ExternalPerson.objects.order_by("pk").values(*RECORD_FIELDS)),
    }


@pytest.fixture
def two_records_of_xin_jin():
    """ "Xin Jin" and "X. Jin" kept apart by mistake, with papers, a student and a collaborator
    each, and authors who are neither. Each record, once added, claims its author rows."""
    student = make_person(name="Hang Zhu")
    for number in range(3):
        make_publication(authors=[student, "Xin Jin", "Someone Else"])
        make_publication(authors=["X. Jin", student, f"Author {number}"])
    xin = make_external(name="Xin Jin", slug="xin-jin", aliases="Jin Xin", orcid="")
    x = make_external(
        name="X. Jin", slug="x-jin", affiliation="Peking University", orcid="0000-0002-1825-0097"
    )
    Advising.objects.create(advisee=student, position=1, advisor=xin)
    Advising.objects.create(advisee=student, position=2, advisor=x, kind="mentor")
    Collaboration.objects.create(person=student, position=1, collaborator=x)
    return xin, x


def test_merging_moves_every_row_and_keeps_the_other_name_as_an_alias(two_records_of_xin_jin):
    xin, x = two_records_of_xin_jin
    change = merge_external_people(keep=xin, absorb=x)

    assert not ExternalPerson.objects.filter(pk=x.pk).exists()
    assert Authorship.objects.filter(researcher=xin).count() == 6
    assert set(Advising.objects.values_list("advisor", flat=True)) == {xin.pk}
    assert Collaboration.objects.get().collaborator == xin
    xin.refresh_from_db()
    assert xin.alias_list == ["Jin Xin", "X. Jin"]
    assert (xin.affiliation, xin.orcid) == ("Peking University", "0000-0002-1825-0097")
    assert change.kind == IdentityChange.Kind.MERGE
    assert change.moved_count == 3 + 1 + 1
    assert change.summary == "Merged “X. Jin” into “Xin Jin”: 5 rows moved."


def test_merging_then_undoing_restores_every_row_and_both_records(two_records_of_xin_jin):
    xin, x = two_records_of_xin_jin
    before = snapshot()
    change = merge_external_people(keep=xin, absorb=x)
    assert snapshot() != before

    result = undo_identity_change(change=change)

    assert snapshot() == before
    assert (result.restored, result.skipped) == (5, 0)
    change.refresh_from_db()
    assert change.undone_at is not None


def test_every_moved_row_keeps_a_history_naming_the_merge_and_its_undo(two_records_of_xin_jin):
    xin, x = two_records_of_xin_jin
    row, x_id = Authorship.objects.filter(researcher=x).first(), x.pk
    undo_identity_change(change=merge_external_people(keep=xin, absorb=x))

    reasons = list(
        row.history.order_by("history_date").values_list("history_change_reason", "researcher")
    )
    assert reasons[-2:] == [
        (f"Merged “X. Jin” (#{x_id}) into “Xin Jin” (#{xin.pk})", xin.pk),
        (f"Undid the merge of “X. Jin” (#{x_id}) into “Xin Jin”", x_id),
    ]
    assert ExternalPerson.history.filter(id=x_id, history_type="-").exists()


def test_after_a_merge_the_absorbed_name_links_new_author_rows_to_the_kept_record(
    two_records_of_xin_jin,
):
    xin, x = two_records_of_xin_jin
    merge_external_people(keep=xin, absorb=x)
    publication = make_publication(authors=["X. Jin"])
    assert [row.external for row in link_authors(publication.authorships.all())] == [xin]


def test_a_merge_is_refused_for_one_record_or_two_orcids(two_records_of_xin_jin):
    xin, x = two_records_of_xin_jin
    with pytest.raises(IdentityChangeRefused, match="two different records"):
        merge_external_people(keep=xin, absorb=xin)
    other = make_external(name="Xin Jin (2)", orcid="0000-0001-5109-3700")
    with pytest.raises(IdentityChangeRefused, match="different ORCIDs"):
        merge_external_people(keep=x, absorb=other)
    assert not IdentityChange.objects.exists()


def test_an_undo_is_refused_twice_and_while_a_later_merge_holds_the_kept_record(
    two_records_of_xin_jin,
):
    xin, x = two_records_of_xin_jin
    third, x_id = make_external(name="Jin, X."), x.pk
    first = merge_external_people(keep=xin, absorb=x)
    second = merge_external_people(keep=third, absorb=xin)
    with pytest.raises(IdentityChangeRefused, match="undo that first"):
        undo_identity_change(change=first)

    undo_identity_change(change=second)
    undo_identity_change(change=first)
    assert Authorship.objects.filter(researcher_id=x_id).count() == 3
    with pytest.raises(IdentityChangeRefused, match="undone already"):
        undo_identity_change(change=first)


def test_an_undo_leaves_alone_a_row_staff_relinked_since(two_records_of_xin_jin):
    xin, x = two_records_of_xin_jin
    moved = list(Authorship.objects.filter(researcher=x).values_list("pk", flat=True))
    change = merge_external_people(keep=xin, absorb=x)
    someone_else = make_external(name="Xiao Jin")
    Authorship.objects.filter(pk=moved[0]).update(researcher=someone_else)

    result = undo_identity_change(change=change)

    assert (result.restored, result.skipped) == (4, 1)
    assert Authorship.objects.get(pk=moved[0]).external == someone_else


def test_splitting_rows_onto_a_new_record_makes_the_name_link_to_nobody():
    papers = [make_publication(authors=["Xin Jin"]) for _ in range(3)]
    xin = make_external(name="Xin Jin", slug="xin-jin")
    wrong = papers[2].authorships.get()

    change = split_author_rows(record=xin, authorship_ids=[wrong.pk])

    wrong.refresh_from_db()
    namesake = wrong.external
    assert (namesake.name, namesake.slug) == ("Xin Jin", "xin-jin-2")
    assert Authorship.objects.filter(researcher=xin).count() == 2
    assert change.summary == "Split 1 author row off “Xin Jin” onto a new record “Xin Jin”."
    later = make_publication(authors=["Xin Jin"])
    assert link_authors(later.authorships.all()) == []


def test_undoing_a_split_puts_the_rows_back_and_removes_the_record_it_made():
    rows = [make_publication(authors=["Xin Jin"]).authorships.get() for _ in range(3)]
    xin = make_external(name="Xin Jin", slug="xin-jin")
    before = snapshot()
    change = split_author_rows(record=xin, authorship_ids=[rows[0].pk, rows[1].pk])

    result = undo_identity_change(change=change)

    assert snapshot() == before
    assert (result.restored, result.skipped) == (2, 0)
    assert not ExternalPerson.objects.filter(slug="xin-jin-2").exists()


def test_splitting_onto_an_existing_record_keeps_that_record_on_undo():
    row = make_publication(authors=["Xin Jin"]).authorships.get()
    xin, other = make_external(name="Xin Jin"), make_external(name="Xin Jin (NYU)")
    change = split_author_rows(record=xin, authorship_ids=[row.pk], into=other)
    assert Authorship.objects.get(pk=row.pk).external == other

    undo_identity_change(change=change)

    assert Authorship.objects.get(pk=row.pk).external == xin
    assert ExternalPerson.objects.filter(pk=other.pk).exists()


def test_a_split_takes_only_the_records_own_rows():
    not_his = make_publication(authors=["Vincent Liu"]).authorships.get()
    row = make_publication(authors=["Xin Jin"]).authorships.get()
    xin, other = make_external(name="Xin Jin"), make_external(name="Vincent Liu")
    with pytest.raises(IdentityChangeRefused, match="at least one author row of “Xin Jin”"):
        split_author_rows(record=xin, authorship_ids=[not_his.pk])
    with pytest.raises(IdentityChangeRefused, match="another record"):
        split_author_rows(record=xin, authorship_ids=[row.pk], into=xin)
    assert Authorship.objects.get(pk=not_his.pk).external == other


def test_a_record_without_rows_merges_and_comes_back_on_undo(two_records_of_xin_jin):
    """A merge of a record no row pointed at answered 500: its log of moved rows was empty,
    which the log's validation refused."""
    xin, _ = two_records_of_xin_jin
    lone = make_external(name="Jin X.", slug="jin-x", aliases="", orcid="")
    before = snapshot()
    change = merge_external_people(keep=xin, absorb=lone)
    assert change.moved_count == 0
    assert not ExternalPerson.objects.filter(slug="jin-x").exists()
    assert undo_identity_change(change=change).restored == 0
    assert snapshot() == before
