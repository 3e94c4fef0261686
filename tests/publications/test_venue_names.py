"""Venue names: the hand-written corpus of real booktitles, then the rules one at a time.

No database: the matcher is plain Python, fed the seeded venues straight from their fixture.
"""

import json
from pathlib import Path

import pytest

from publications.bibtex.venues import (
    FULL_NAME_MAX,
    SHORT_NAME_MAX,
    KnownVenue,
    ProposedVenue,
    VenueKind,
    VenueMatcher,
)
from publications.models import Venue, aliases_from_text
from tests.publications.venue_corpus import CORPUS, EXTRA_VENUES, SEEDED_ALIASES

SEEDED_VENUES = Path(__file__).resolve().parents[2] / "fixtures" / "venues.json"


def seeded_venues(*, aliases=None) -> list[KnownVenue]:
    """The venues `make run` seeds, keyed by short name, with `aliases` added by short name."""
    aliases = aliases or {}
    rows = json.loads(SEEDED_VENUES.read_text())
    return [
        KnownVenue(
            key=row["fields"]["short_name"],
            short_name=row["fields"]["short_name"],
            full_name=row["fields"]["full_name"],
            aliases=aliases.get(row["fields"]["short_name"], ()),
            kind=row["fields"]["kind"],
        )
        for row in rows
        if row["model"] == "publications.venue"
    ]


def venue(short_name, full_name="", aliases=(), kind=VenueKind.CONFERENCE) -> KnownVenue:
    return KnownVenue(
        key=short_name, short_name=short_name, full_name=full_name, aliases=aliases, kind=kind
    )


LAB_VENUES = seeded_venues(aliases=SEEDED_ALIASES) + [venue(*extra) for extra in EXTRA_VENUES]
LAB = VenueMatcher(LAB_VENUES)
SEEDED = VenueMatcher(seeded_venues())


def corpus_id(line) -> str:
    return f"{line.source}: {line.text}"


# The corpus ------------------------------------------------------------------------------------


@pytest.mark.parametrize("line", CORPUS, ids=corpus_id)
def test_corpus_line_names_its_venue_and_no_other(line):
    found = LAB.match(line.text)
    assert (found.short_name if found else None) == line.venue


@pytest.mark.parametrize("line", [line for line in CORPUS if line.venue is None], ids=corpus_id)
def test_corpus_line_for_an_unknown_venue_proposes_its_acronym_and_a_clean_name(line):
    proposed = LAB.proposed_venue(line.text)
    assert (proposed.short_name, proposed.full_name) == line.proposed
    assert len(proposed.short_name) <= SHORT_NAME_MAX
    assert len(proposed.full_name) <= FULL_NAME_MAX


def test_the_corpus_has_forty_lines_from_the_four_exports_and_a_line_for_every_known_venue():
    """A known venue without a line would be matched by nothing the tests check."""
    from_exports = [line for line in CORPUS if line.source in {"dblp", "acm", "ieee", "usenix"}]
    assert len(from_exports) >= 40
    assert len({line.text for line in CORPUS}) == len(CORPUS)
    assert {known.short_name for known in LAB_VENUES} <= {line.venue for line in CORPUS}


# The three booktitles of the issue -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "short_name"),
    [
        ("Proceedings of the ACM Special Interest Group on Data Communication", "SIGCOMM"),
        ("Proceedings of the 29th Symposium on Operating Systems Principles", "SOSP"),
        (
            "19th USENIX Symposium on Networked Systems Design and Implementation, NSDI 2022, "
            "Renton, WA, USA, April 4-6, 2022",
            "NSDI",
        ),
    ],
)
def test_the_issues_booktitles_match_the_seeded_venues_without_any_alias(text, short_name):
    assert SEEDED.match(text).short_name == short_name


# Matching rules --------------------------------------------------------------------------------


def test_a_full_name_two_venues_share_matches_neither_and_both_are_candidates():
    first = venue("SoE", "Symposium on Examples")
    second = venue("SOE", "Symposium on Examples", kind=VenueKind.WORKSHOP)
    matcher = VenueMatcher([first, second, venue("Other", "Symposium on Others")])
    assert matcher.match("Proceedings of the 3rd Symposium on Examples") is None
    assert matcher.candidates("Proceedings of the 3rd Symposium on Examples") == (first, second)


def test_an_alias_that_is_another_venues_short_name_matches_neither():
    ton = venue("TON", "IEEE/ACM Transactions on Networking", aliases=("ToN",))
    other = venue("ToN", "Transactions on Nothing")
    matcher = VenueMatcher([ton, other])
    assert matcher.match("ToN") is None
    assert matcher.match("IEEE/ACM Transactions on Networking") == ton


def test_an_alias_matches_like_a_short_name_and_like_a_full_name():
    hotos = venue("HotOS", "Workshop on Hot Topics in Operating Systems", aliases=("HotOS XIX",))
    matcher = VenueMatcher([*seeded_venues(), hotos])
    assert matcher.match("hotos xix") == hotos
    assert matcher.match("HotOS '23: Proceedings of the 19th Workshop on Hot Topics") == hotos


def test_sponsors_that_contradict_each_other_do_not_match():
    """The ACM's SOSP is not an "IEEE Symposium on Operating Systems Principles"."""
    assert SEEDED.match("IEEE Symposium on Operating Systems Principles") is None
    assert SEEDED.match("ACM SIGOPS Symposium on Operating Systems Principles").short_name == "SOSP"


def test_a_part_of_a_venues_name_is_not_that_venue():
    assert SEEDED.match("Networked Systems Design") is None
    assert SEEDED.match("Operating Systems") is None
    assert SEEDED.match("Symposium on Operating Systems Design") is None
    assert SEEDED.match("USENIX Symposium on Operating Systems Principles and Design") is None


@pytest.mark.parametrize(
    ("workshop", "conference"),
    [
        (
            "IEEE INFOCOM 2022 - IEEE Conference on Computer Communications Workshops "
            "(INFOCOM WKSHPS)",
            "IEEE INFOCOM 2022 - IEEE Conference on Computer Communications",
        ),
        (
            "5th International Conference on Learning Representations, ICLR 2017, Toulon, "
            "France, April 24-26, 2017, Workshop Track Proceedings",
            "5th International Conference on Learning Representations, ICLR 2017, Toulon, "
            "France, April 24-26, 2017, Conference Track Proceedings",
        ),
        ("ICLR (Workshop)", "ICLR (Poster)"),
    ],
)
def test_a_workshop_held_with_a_conference_is_not_the_conference(workshop, conference):
    infocom = venue("INFOCOM", "IEEE Conference on Computer Communications")
    matcher = VenueMatcher([*LAB_VENUES, infocom])
    assert matcher.match(conference) is not None
    assert matcher.match(workshop) is None


def test_without_its_aliases_pvldb_is_not_guessed_to_be_vldb():
    assert SEEDED.match("Proc. VLDB Endow.") is None
    assert SEEDED.match("PVLDB") is None
    assert SEEDED.proposed_venue("PVLDB").short_name == "PVLDB"


def test_a_journal_abbreviation_must_abbreviate_every_word_in_order():
    tpds = venue("TPDS", "IEEE Transactions on Parallel and Distributed Systems")
    matcher = VenueMatcher([tpds])
    assert matcher.match("IEEE Trans. Parallel Distributed Syst.") == tpds
    assert matcher.match("IEEE Trans. Parallel Syst.") is None
    assert matcher.match("IEEE Trans. Distributed Parallel Syst.") is None
    assert matcher.match("ACM Trans. Parallel Distributed Syst.") is None


def test_a_venues_own_display_name_reads_back_as_that_venue():
    """The BibTeX export writes Venue.display_name; importing it again finds the same venue."""
    for known in LAB_VENUES:
        display_name = Venue(short_name=known.short_name, full_name=known.full_name).display_name
        assert LAB.match(display_name) == known, display_name


def test_empty_and_odd_text_matches_nothing_and_never_fails():
    odd = ["", "   ", "()", "{", "'22", "2022", "Proceedings of the", ",,,", "(((", "In:", "-"]
    odd += ["Proceedings of the " * 500, "A" * 5000, "x (" * 300, "Renton, WA, USA"]
    for text in odd:
        assert LAB.match(text) is None, text
        proposed = LAB.proposed_venue(text)
        if proposed is not None:
            assert 0 < len(proposed.short_name) <= SHORT_NAME_MAX
            assert len(proposed.full_name) <= FULL_NAME_MAX


# Proposing a new venue -------------------------------------------------------------------------


def test_the_importers_own_examples_propose_what_it_proposed_before():
    assert LAB.proposed_venue(
        "Workshop on Hot Topics in Things (HotThings '25)", default_kind=VenueKind.CONFERENCE
    ) == ProposedVenue("HotThings", "Workshop on Hot Topics in Things", VenueKind.WORKSHOP)
    assert LAB.proposed_venue(
        "Journal of Examples", default_kind=VenueKind.JOURNAL
    ) == ProposedVenue("Journal of Examples", "Journal of Examples", VenueKind.JOURNAL)
    assert LAB.proposed_venue("Symposium on Examples (SoE '25)") == ProposedVenue(
        "SoE", "Symposium on Examples", VenueKind.CONFERENCE
    )


def test_a_long_name_without_acronym_is_cut_between_words_never_given_invented_initials():
    text = (
        "Proceedings of the 3rd International Workshop on Practical Verification of "
        "Distributed Consensus in Heterogeneous Edge Deployments"
    )
    proposed = LAB.proposed_venue(text)
    assert proposed.full_name == (
        "International Workshop on Practical Verification of Distributed Consensus in "
        "Heterogeneous Edge Deployments"
    )
    assert proposed.short_name == "International Workshop on Practical Verification…"
    assert len(proposed.short_name) <= SHORT_NAME_MAX


# Texts without an acronym, and the short name a new venue keeps: the name as written.
NAMES_AS_WRITTEN = [
    ("Proceedings of Machine Learning and Systems", "Proceedings of Machine Learning and Systems"),
    ("Proceedings of Machine Learning and Systems 5", "Proceedings of Machine Learning and Systems"),
    ("EECS Department, University of California, Berkeley", "EECS Department, University of California…"),
    ("University of Cambridge", "University of Cambridge"),
]  # fmt: skip
# IEEE's "SC20", "SC22" and dblp's "{SC} 2021": one venue, SC.
SUPERCOMPUTING = [
    "SC20: International Conference for High Performance Computing, Networking, Storage and Analysis",
    "SC22: International Conference for High Performance Computing, Networking, Storage and Analysis",
    "Proceedings of the International Conference for High Performance Computing, Networking, "
    "Storage and Analysis, {SC} 2021, St. Louis, Missouri, USA, November 14-19, 2021",
]  # fmt: skip


def test_a_venue_without_acronym_keeps_its_name_as_written():
    """MLSys's proceedings became "PMLS" and a Berkeley thesis's school "EECS DUCB"."""
    for text, short_name in NAMES_AS_WRITTEN:
        proposed = VenueMatcher([]).proposed_venue(text)
        assert proposed.short_name == short_name, text
        assert proposed.full_name.startswith(short_name.rstrip("…"))


def test_an_acronym_with_its_year_stuck_to_it_is_one_venue_not_one_a_year():
    """IEEE writes "SC20", "SC22": the venue is SC, found again every year; "IC2E" keeps its
    digit."""
    supercomputing = venue("SC", "International Conference for High Performance Computing")
    for text in SUPERCOMPUTING:
        assert VenueMatcher([]).proposed_venue(text).short_name == "SC", text
        assert VenueMatcher([supercomputing]).match(text) == supercomputing, text
    assert VenueMatcher([]).proposed_venue("IEEE IC2E 2022").short_name == "IC2E"


def test_a_proposed_short_name_is_never_one_a_known_venue_goes_by():
    """Creating a venue under a name a venue goes by would file the paper under that one."""
    text = "Proceedings of the 2022 International Conference on Management of Data"
    name = "International Conference on Management of Data"
    numbered = VenueMatcher([venue(name)]).proposed_venue(text).short_name
    assert numbered == "International Conference on Management of (2)"
    taken = VenueMatcher([venue("HotThings", "Other"), venue("Workshop on Hot Topics in Things")])
    assert taken.proposed_venue("Workshop on Hot Topics in Things (HotThings '25)").short_name == (
        "HotThings (2)"
    )


def test_an_absurdly_long_name_is_cut_between_words_to_fit():
    text = "Symposium on " + " ".join(f"Topic{number}" for number in range(80)) + " (LONG '24)"
    proposed = LAB.proposed_venue(text)
    assert proposed.short_name == "LONG"
    assert len(proposed.full_name) <= FULL_NAME_MAX
    assert proposed.full_name.split()[-1].startswith("Topic")


@pytest.mark.parametrize(
    ("text", "default_kind", "kind"),
    [
        ("Workshop on Things", VenueKind.CONFERENCE, VenueKind.WORKSHOP),
        ("Workshop on Things", None, VenueKind.WORKSHOP),
        ("bioRxiv", VenueKind.JOURNAL, VenueKind.PREPRINT_SERVER),
        ("Proceedings of the VLDB Endowment", VenueKind.JOURNAL, VenueKind.JOURNAL),
        ("Proceedings of the VLDB Endowment", None, VenueKind.OTHER),
        ("Journal of Things", None, VenueKind.JOURNAL),
        ("Symposium on Things", None, VenueKind.CONFERENCE),
        ("Things", VenueKind.CONFERENCE, VenueKind.CONFERENCE),
        ("Things", None, VenueKind.OTHER),
    ],
)
def test_a_proposed_kind_comes_from_the_entry_type_unless_the_text_says_preprint_or_workshop(
    text, default_kind, kind
):
    assert VenueMatcher([]).proposed_venue(text, default_kind=default_kind).kind == kind


def test_text_that_names_nothing_proposes_nothing():
    assert LAB.proposed_venue("") is None
    assert LAB.proposed_venue("2022, April 4-6") is None


# What the model and the admin need ---------------------------------------------------------------


def test_aliases_typed_one_a_line_ignore_blank_lines_spaces_and_repeats():
    text = "  PVLDB \n\nProceedings of the  VLDB Endowment\r\npvldb\n"
    assert aliases_from_text(text) == ("PVLDB", "Proceedings of the VLDB Endowment")


def test_the_limits_and_kinds_agree_with_the_venue_model():
    assert Venue._meta.get_field("short_name").max_length == SHORT_NAME_MAX
    assert Venue._meta.get_field("full_name").max_length == FULL_NAME_MAX
    assert {kind.value for kind in VenueKind} == set(Venue.Kind.values)
