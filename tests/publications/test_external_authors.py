"""Author rows link to external people exactly as they link to members: by the whole printed
name or an alias, and never when two people share the name."""

import pytest

from publications.bibtex import import_bibtex, parse_bibtex, review_bibliography
from publications.models import Authorship, Publication
from publications.services import author_name_index, link_authors, member_name_index
from tests.department import make_external
from tests.factories import make_person, make_publication

pytestmark = pytest.mark.django_db


def linked(publication) -> dict:
    rows = Authorship.objects.filter(publication=publication)
    return {
        row.name: row.person or row.external for row in rows.select_related("researcher__profile")
    }


def test_a_new_record_claims_the_rows_printed_with_its_name_or_alias_and_no_others():
    paper = make_publication(authors=["Xin Jin", "X. Jin", "Xin Jing", "Jin Xin", "xin  jin*"])
    xin = make_external(name="Xin Jin", aliases="X. Jin")
    assert linked(paper) == {
        "Xin Jin": xin,
        "X. Jin": xin,
        "Xin Jing": None,
        "Jin Xin": None,
        "xin  jin*": None,  # the receiver's first pass is by whole name, ignoring case
    }
    assert [row.name for row in link_authors(paper.authorships.all())] == ["xin  jin*"]


def test_adding_an_alias_later_claims_the_rows_printed_with_it():
    paper = make_publication(authors=["Jin Xin"])
    xin = make_external(name="Xin Jin")
    assert linked(paper) == {"Jin Xin": None}
    xin.aliases = "Jin Xin"
    xin.save()
    assert linked(paper) == {"Jin Xin": xin}


def test_a_name_two_records_share_links_to_neither():
    make_external(name="Wei Li", affiliation="MIT")
    make_external(name="Wei Li", affiliation="CMU")
    paper = make_publication(authors=["Wei Li"])
    assert link_authors(paper.authorships.all()) == []
    assert "wei li" not in author_name_index()


def test_a_namesake_record_added_later_leaves_the_rows_already_linked_as_they_are():
    paper = make_publication(authors=["Wei Li"])
    first = make_external(name="Wei Li", affiliation="MIT")
    make_external(name="Wei Li", affiliation="CMU")
    assert linked(paper) == {"Wei Li": first}


def test_a_name_a_member_and_a_record_share_links_to_neither_and_is_no_members_name():
    make_person(name="Hang Zhu")
    make_external(name="Hang Zhu", affiliation="Elsewhere")
    paper = make_publication(authors=["Hang Zhu"])
    assert link_authors(paper.authorships.all()) == []
    assert "hang zhu" not in member_name_index()


def test_members_and_records_are_linked_in_one_pass():
    member = make_person(name="Hang Zhu")
    record = make_external(name="Xin Jin")
    paper = make_publication(authors=["Hang Zhu", "Xin Jin", "Ion Stoica"])
    assert len(link_authors(paper.authorships.all(), on_behalf_of=member)) == 2
    assert linked(paper) == {"Hang Zhu": member, "Xin Jin": record, "Ion Stoica": None}


def test_a_row_linked_to_someone_is_left_alone():
    paper = make_publication(authors=["Xin Jin"])
    other = make_external(name="Someone Else")
    Authorship.objects.filter(publication=paper).update(researcher=other)
    make_external(name="Xin Jin")
    assert linked(paper) == {"Xin Jin": other}


def test_a_profiles_collaborators_outside_the_lab_are_counted_by_shared_paper():
    hang = make_person(name="Hang Zhu")
    for authors in [
        [hang, "Xin Jin", "Ion Stoica"],
        [hang, "Xin Jin"],
        [hang, "Ion Stoica", "Xin Jin"],
        ["Xin Jin"],  # not Hang's
        [hang, "Tao Wang"],  # no record: a printed name only
    ]:
        make_publication(authors=authors)
    make_external(name="Xin Jin")
    make_external(name="Ion Stoica")
    collaborators = Publication.objects.authored_by(hang).external_coauthors()
    assert [(record.name, record.shared) for record in collaborators] == [
        ("Xin Jin", 3),
        ("Ion Stoica", 2),
    ]


def test_a_bibtex_import_links_authors_to_members_and_records_by_the_same_rule():
    member = make_person(name="Hang Zhu")
    record = make_external(name="Xin Jin")
    make_external(name="Wei Li", affiliation="MIT")
    make_external(name="Wei Li", affiliation="CMU")
    text = "@inproceedings{k, title={Imported}, author={Zhu, Hang and Jin, Xin and Li, Wei}}"
    review = review_bibliography(bibliography=parse_bibtex(text))
    (item,) = review.entries
    assert [(a.name, a.member, a.external) for a in item.authors] == [
        ("Hang Zhu", member, None),
        ("Xin Jin", None, record),
        ("Wei Li", None, None),
    ]
    import_bibtex(text=text)
    assert linked(Publication.objects.get(title="Imported")) == {
        "Hang Zhu": member,
        "Xin Jin": record,
        "Wei Li": None,
    }
