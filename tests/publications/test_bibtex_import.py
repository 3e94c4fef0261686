"""BibTeX import: reading tricky files, the review's decisions, and the import being all or nothing."""

import pytest

from publications.bibtex import (
    Decision,
    ImportRefused,
    import_bibtex,
    parse_bibtex,
    review_bibliography,
)
from publications.models import Authorship, Publication, PublicationLink, Venue
from tests.factories import make_person, make_publication, make_venue

pytestmark = pytest.mark.django_db

TRICKY = r"""
@string{nsdi = "USENIX Symposium on Networked Systems Design and Implementation"}

@inproceedings{mueller2024cafe,
  title     = {{Caf\'e} and {\"U}ber: Caching {GPU} Kernels -- Fast},
  author    = {M{\"u}ller, Hans and Jos\'{e} Garc{\'\i}a and {Barnes and Noble, Inc.} and
               van Beethoven, Jr., Ludwig and others},
  booktitle = nsdi # " (NSDI '24)",
  year      = 2024,
  doi       = {https://doi.org/10.5555/ABC.123},
}

@misc{undated,
  Title = {Thoughts Without a Date},
}
"""


def read(text):
    return review_bibliography(bibliography=parse_bibtex(text))


def entry(text, key=None):
    entries = parse_bibtex(text).entries
    return next(item for item in entries if key is None or item.key == key)


# Reading ---------------------------------------------------------------------------------------


def test_latex_accents_and_protective_braces_become_plain_unicode():
    cafe = entry(TRICKY, "mueller2024cafe")
    assert cafe.title == "Café and Über: Caching GPU Kernels – Fast"


def test_names_are_kept_in_printed_order_and_a_braced_name_stays_whole():
    cafe = entry(TRICKY, "mueller2024cafe")
    assert cafe.authors == (
        "Hans Müller",
        "José García",
        "Barnes and Noble, Inc.",
        "Ludwig van Beethoven Jr.",
    )


def test_and_others_is_not_an_author_but_is_said_in_a_warning():
    cafe = entry(TRICKY, "mueller2024cafe")
    assert cafe.more_authors
    assert "others" not in cafe.authors
    assert any("and others" in warning for warning in cafe.warnings)


def test_string_macros_and_their_concatenation_are_resolved():
    cafe = entry(TRICKY, "mueller2024cafe")
    assert (
        cafe.venue == "USENIX Symposium on Networked Systems Design and Implementation (NSDI '24)"
    )
    assert cafe.doi == "10.5555/ABC.123"


def test_missing_year_venue_and_authors_are_allowed_and_field_names_ignore_case():
    undated = entry(TRICKY, "undated")
    assert undated.title == "Thoughts Without a Date"
    assert (undated.year, undated.venue, undated.authors, undated.problems) == (None, "", (), ())
    assert "has no authors." in undated.warnings


def test_a_biblatex_date_gives_the_year():
    assert entry("@online{d, title={T}, date={2024-05-01}}").year == 2024


def test_an_entry_without_title_or_with_a_bad_year_is_a_problem_named_by_line_and_key():
    review = read("@article{ok, title={Fine}, year=2020}\n@article{bad, year={soon}}\n")
    assert review.all_problems == [
        "Line 2, entry “bad”: has no title.",
        "Line 2, entry “bad”: the year “soon” is not a year.",
    ]
    assert [item.decision for item in review.entries] == [Decision.NEW, Decision.INVALID]
    assert not review.can_import


def test_a_syntax_error_is_reported_with_its_line_and_key():
    text = "@article{first, title={One}, year=2020}\n\n@article{broken,\n  title = {Two\n@article{third, title={Three}}\n"
    review = read(text)
    assert len(review.problems) == 1
    problem = review.problems[0]
    assert (problem.line, problem.key) == (3, "broken")
    assert str(problem).startswith("Line 3, entry “broken”: is not valid BibTeX.")
    assert not review.can_import


def test_a_repeated_key_and_an_unknown_string_macro_are_problems():
    review = read(
        "@article{same, title={One}}\n@article{same, title={Two}}\n"
        "@article{macro, title={Three}, journal=nowhere}\n"
    )
    assert "Line 2, entry “same”: an earlier entry has the same key." in review.all_problems
    assert "Line 3, entry “macro”: journal uses “nowhere”, which no @string defines." in (
        review.all_problems
    )


def test_an_unparsable_author_list_is_a_problem():
    review = read("@article{names, title={T}, author={Smith, J., Jr., Extra}}")
    assert review.all_problems == [
        "Line 1, entry “names”: cannot read the author “Smith, J., Jr., Extra”: too many commas."
    ]


def test_an_arxiv_journal_is_the_arxiv_preprint_server():
    arxiv = make_venue(short_name="arXiv", full_name="arXiv", kind=Venue.Kind.PREPRINT_SERVER)
    review = read("@article{p, title={P}, journal={arXiv preprint arXiv:2501.01234}, year=2025}")
    item = review.entries[0]
    assert item.venue.venue == arxiv
    assert item.type == Publication.Type.PREPRINT


# Reviewing -------------------------------------------------------------------------------------


def test_same_doi_is_a_duplicate_whatever_its_spelling():
    existing = make_publication(title="Something Else", doi="10.5555/abc.123", year=2024)
    item = read(TRICKY).entries[0]
    assert item.decision is Decision.UPDATE or item.decision is Decision.DUPLICATE
    assert item.existing == existing
    assert "same DOI" in item.describe()


def test_same_normalized_title_and_year_is_a_duplicate():
    venue = make_venue(short_name="SOSP", full_name="ACM Symposium on Operating Systems Principles")
    existing = make_publication(
        title="Cafe and Uber: caching GPU kernels – fast!", year=2024, venue=venue
    )
    review = read(
        "@inproceedings{k, title={{Caf\\'e} and {\\\"U}ber: Caching {GPU} Kernels -- Fast},"
        " booktitle={Proceedings of the 29th ACM Symposium on Operating Systems Principles},"
        " year=2024}"
    )
    item = review.entries[0]
    assert item.decision is Decision.DUPLICATE
    assert item.existing == existing
    assert item.describe() == (
        f"Duplicate of “{existing.title}” (same title and year): nothing to import."
    )
    assert review.importable_keys == []


def test_a_preprint_now_published_is_a_likely_update_listing_its_changes():
    arxiv = make_venue(short_name="arXiv", kind=Venue.Kind.PREPRINT_SERVER)
    nsdi = make_venue(short_name="NSDI", full_name="USENIX Symposium on Networked Systems Design")
    preprint = make_publication(
        title="Mucache", year=2023, venue=arxiv, type=Publication.Type.PREPRINT
    )
    item = read("@inproceedings{m, title={Mucache}, booktitle={NSDI}, year=2024}").entries[0]
    assert item.decision is Decision.UPDATE
    assert item.existing == preprint
    assert [(change.field, change.old, change.new) for change in item.changes] == [
        ("year", "2023", "2024"),
        ("venue", "arXiv", str(item.venue)),
        ("type", "Preprint", "Conference paper"),
    ]
    assert item.venue.venue == nsdi


def test_the_same_paper_twice_in_one_file_is_imported_once():
    review = read("@article{a, title={Twice}, year=2020}\n@article{b, title={twice!}, year=2020}\n")
    assert [item.decision for item in review.entries] == [Decision.NEW, Decision.DUPLICATE]
    assert review.entries[1].describe() == "Duplicate of entry “a” above: nothing to import."


def test_authors_are_matched_to_members_by_name_or_alias_only():
    hang = make_person(name="Hang Zhu", aliases="H. Zhu")
    hao = make_person(name="Hao Zhang")
    item = read(
        "@article{a, title={T}, author={Zhu, H. and Haoran Zhang and Zhang, Hao and Hang Zhu}}"
    ).entries[0]
    assert [(author.name, author.member) for author in item.authors] == [
        ("H. Zhu", hang),
        ("Haoran Zhang", None),
        ("Hao Zhang", hao),
        ("Hang Zhu", hang),
    ]


@pytest.mark.parametrize(
    "booktitle",
    [
        "NSDI",
        "nsdi",
        "USENIX Symposium on Networked Systems Design and Implementation",
        "Proceedings of the 21st USENIX Symposium on Networked Systems Design and Implementation",
        "21st USENIX Symposium on Networked Systems Design and Implementation (NSDI 24)",
        "Something the lab calls it (NSDI '24)",
    ],
)
def test_a_venue_is_found_by_short_or_full_name(booktitle):
    nsdi = make_venue(
        short_name="NSDI",
        full_name="USENIX Symposium on Networked Systems Design and Implementation",
    )
    item = read(f"@inproceedings{{a, title={{T}}, booktitle={{{booktitle}}}}}").entries[0]
    assert item.venue.venue == nsdi


def test_an_unknown_venue_would_be_created_with_its_abbreviation_and_kind():
    review = read(
        "@inproceedings{a, title={A}, booktitle={Workshop on Hot Topics in Things (HotThings '25)}}\n"
        "@article{b, title={B}, journal={Journal of Examples}}\n"
    )
    workshop, journal = (item.venue for item in review.entries)
    assert (workshop.is_new, workshop.short_name, workshop.full_name, workshop.kind) == (
        True,
        "HotThings",
        "Workshop on Hot Topics in Things",
        Venue.Kind.WORKSHOP,
    )
    assert review.entries[0].type == Publication.Type.WORKSHOP_PAPER
    assert (journal.short_name, journal.kind) == ("Journal of Examples", Venue.Kind.JOURNAL)


def test_the_review_runs_a_fixed_number_of_queries(django_assert_num_queries):
    """Publications, the links naming arXiv papers, venues, members and external people (whose
    names a member's may share) are each read once, whatever the number of entries."""
    make_person(name="Hang Zhu")
    make_publication(title="Existing")
    text = "\n".join(
        f"@article{{k{number}, title={{Paper {number}}}, author={{Hang Zhu}}, journal={{J}}}}"
        for number in range(30)
    )
    bibliography = parse_bibtex(text)
    with django_assert_num_queries(5):
        review_bibliography(bibliography=bibliography)


# Importing -------------------------------------------------------------------------------------


def test_import_creates_publications_authors_in_order_venues_once_and_links():
    hang = make_person(name="Hang Zhu")
    result = import_bibtex(
        text=(
            "@inproceedings{one, title={First Paper}, author={Zhu, Hang and Ada Lovelace},"
            " booktitle={Symposium on Examples (SoE)}, year=2025, url={https://example.org/one.pdf}}\n"
            "@inproceedings{two, title={Second Paper}, author={Grace Hopper and Hang Zhu},"
            " booktitle={Symposium on Examples (SoE '25)}, year=2025, note={To appear}}\n"
        )
    )
    assert [publication.title for publication in result.created] == ["First Paper", "Second Paper"]
    first, second = result.created
    assert list(first.authorships.values_list("position", "name", "researcher__profile")) == [
        (1, "Hang Zhu", hang.pk),
        (2, "Ada Lovelace", None),
    ]
    assert first.venue == second.venue
    assert (first.venue.short_name, first.venue.full_name) == ("SoE", "Symposium on Examples")
    assert Venue.objects.count() == 1
    assert first.slug == "first-paper" and first.year == 2025
    assert second.status == Publication.Status.ACCEPTED
    link = PublicationLink.objects.get(publication=first)
    assert (link.kind, link.url) == (PublicationLink.Kind.PDF, "https://example.org/one.pdf")


def test_import_of_an_update_changes_only_what_it_listed():
    arxiv = make_venue(short_name="arXiv", kind=Venue.Kind.PREPRINT_SERVER)
    preprint = make_publication(
        title="Mucache",
        year=2023,
        venue=arxiv,
        type=Publication.Type.PREPRINT,
        abstract="Kept.",
        authors=["Original Author"],
    )
    result = import_bibtex(
        text="@inproceedings{m, title={Mucache}, author={Someone Else}, booktitle={NSDI}, year=2024}",
        keys=["m"],  # a move to another venue is imported only when ticked
    )
    assert result.created == () and result.updated == (preprint,)
    preprint.refresh_from_db()
    assert (preprint.year, preprint.venue.short_name, preprint.type) == (
        2024,
        "NSDI",
        Publication.Type.CONFERENCE_PAPER,
    )
    assert preprint.abstract == "Kept."
    assert list(preprint.authorships.values_list("name", flat=True)) == ["Original Author"]


def test_only_the_ticked_entries_are_imported():
    import_bibtex(text="@article{a, title={Wanted}}\n@article{b, title={Unwanted}}\n", keys=["a"])
    assert list(Publication.objects.values_list("title", flat=True)) == ["Wanted"]


def test_new_slugs_avoid_taken_and_reserved_ones():
    make_publication(title="Another title", slug="taken")
    result = import_bibtex(text="@article{a, title={Taken}}\n@article{b, title={Feed}}\n")
    assert [publication.slug for publication in result.created] == ["taken-2", "feed-2"]


def test_a_file_with_any_problem_imports_nothing_even_its_good_entries():
    with pytest.raises(ImportRefused) as refused:
        import_bibtex(text="@article{good, title={Good}}\n@article{bad, year={1999}}\n")
    assert "has problems" in str(refused.value)
    assert not Publication.objects.exists()


def test_a_ticked_entry_that_became_a_duplicate_since_the_review_imports_nothing():
    text = "@article{a, title={Alpha}, year=2020}\n@article{b, title={Beta}, year=2020}\n"
    # Added by someone else between the review and the confirmation.
    make_publication(title="Beta", year=2020, type=Publication.Type.JOURNAL_ARTICLE)
    with pytest.raises(ImportRefused) as refused:
        import_bibtex(text=text, keys=["a", "b"])
    assert "no longer new or updates: b" in str(refused.value)
    assert list(Publication.objects.values_list("title", flat=True)) == ["Beta"]


def test_a_failure_halfway_rolls_the_whole_import_back(monkeypatch):
    original = Authorship.objects.bulk_create
    calls = []

    def fail_on_second(objects, *args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise RuntimeError("the database went away")
        return original(objects, *args, **kwargs)

    monkeypatch.setattr(Authorship.objects, "bulk_create", fail_on_second)
    with pytest.raises(RuntimeError):
        import_bibtex(
            text="@article{a, title={One}, author={A B}, journal={New Journal}}\n"
            "@article{b, title={Two}, author={C D}}\n"
        )
    assert not Publication.objects.exists()
    assert not Venue.objects.exists()


def test_an_update_is_applied_only_when_ticked_so_a_curated_poster_stays_a_poster():
    venue = make_venue(short_name="NSDI", full_name="USENIX Symposium on Networked Systems Design")
    poster = make_publication(title="Mucache", year=2024, venue=venue, type=Publication.Type.POSTER)
    text = "@inproceedings{m, title={Mucache}, booktitle={NSDI}, year=2024}"
    item = read(text).entries[0]
    assert item.decision is Decision.UPDATE and not item.ticked_by_default
    assert item.venue_notes() == [
        "Not ticked: it changes a paper already on the site. Tick it to apply the change."
    ]
    with pytest.raises(ImportRefused, match="every entry was left out"):
        import_bibtex(text=text)
    poster.refresh_from_db()
    assert poster.type == Publication.Type.POSTER
    import_bibtex(text=text, keys=["m"])
    poster.refresh_from_db()
    assert poster.type == Publication.Type.CONFERENCE_PAPER
