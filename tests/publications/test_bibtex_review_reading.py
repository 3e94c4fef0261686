"""What a real export holds, read as staff expect (issue 27): dblp's crossref parents folded
into their papers, arXiv ids from eprint fields and arXiv citations, LaTeX math as text."""

import pytest

from publications.bibtex import Decision, import_bibtex, parse_bibtex, review_bibliography
from publications.models import Publication, PublicationLink, Venue
from tests.factories import make_publication, make_venue

pytestmark = pytest.mark.django_db

# dblp's export "with crossref": each paper names its proceedings, which follow as an entry.
DBLP_WITH_CROSSREF = r"""
@inproceedings{DBLP:conf/osdi/ZhengLZZCHWXZXG22,
  author    = {Lianmin Zheng and Zhuohan Li and Hao Zhang},
  title     = {Alpa: Automating Inter- and Intra-Operator Parallelism for Distributed Deep Learning},
  pages     = {559--578},
  crossref  = {DBLP:conf/osdi/2022},
  url       = {https://www.usenix.org/conference/osdi22/presentation/zheng-lianmin},
  biburl    = {https://dblp.org/rec/conf/osdi/ZhengLZZCHWXZXG22.bib},
}

@inproceedings{DBLP:conf/osdi/Other22,
  author    = {Ada Lovelace},
  title     = {Another Paper},
  booktitle = {OSDI 2022},
  crossref  = {DBLP:conf/osdi/2022},
}

@proceedings{DBLP:conf/osdi/2022,
  editor    = {Marcos K. Aguilera and Hakim Weatherspoon},
  title     = {16th {USENIX} Symposium on Operating Systems Design and Implementation, {OSDI}
               2022, Carlsbad, CA, USA, July 11-13, 2022},
  publisher = {{USENIX} Association},
  year      = {2022},
  url       = {https://www.usenix.org/conference/osdi22},
  isbn      = {978-1-939133-28-1},
}
"""


def entries(text):
    return {entry.key: entry for entry in parse_bibtex(text).entries}


def test_a_crossref_parent_is_not_offered_as_a_paper_and_its_fields_fill_its_children():
    read = entries(DBLP_WITH_CROSSREF)
    assert set(read) == {"DBLP:conf/osdi/ZhengLZZCHWXZXG22", "DBLP:conf/osdi/Other22"}
    alpa = read["DBLP:conf/osdi/ZhengLZZCHWXZXG22"]
    assert alpa.year == 2022
    assert alpa.publisher == "USENIX Association"
    assert alpa.venue.startswith("16th USENIX Symposium on Operating Systems Design")
    # Its own address stays; the volume's address is not the paper's.
    assert alpa.url == "https://www.usenix.org/conference/osdi22/presentation/zheng-lianmin"
    other = read["DBLP:conf/osdi/Other22"]
    assert (other.venue, other.year) == ("OSDI 2022", 2022)  # its own booktitle kept
    # A crossref to an entry not in the file changes nothing.
    alone = entries("@inproceedings{a, title={A}, year=2020, crossref={DBLP:conf/x/2020}}")
    assert alone["a"].year == 2020 and alone["a"].venue == ""


def test_reviewing_a_dblp_export_with_crossrefs_offers_only_the_papers_under_one_venue():
    osdi = make_venue(short_name="OSDI", full_name="Operating Systems Design and Implementation")
    review = review_bibliography(bibliography=parse_bibtex(DBLP_WITH_CROSSREF))
    assert [item.entry.entry_type for item in review.entries] == ["inproceedings"] * 2
    assert {item.venue.venue for item in review.entries} == {osdi}
    assert all(item.type == Publication.Type.CONFERENCE_PAPER for item in review.entries)
    assert review.summary().startswith("2 entries, 2 new")


@pytest.mark.parametrize(
    "fields",
    [
        "eprint={1412.6980}, archivePrefix={arXiv}",
        "eprint={arXiv:1412.6980v9}, eprinttype={arxiv}",
        "journal={arXiv preprint arXiv:1412.6980}",
        "journal={CoRR}, volume={abs/1412.6980}, eprint={1412.6980}, eprinttype={arXiv}",
        "url={http://arxiv.org/abs/1412.6980v9}",
    ],
)
def test_an_arxiv_paper_is_read_as_its_arxiv_id_whichever_way_the_file_gives_it(fields):
    (adam,) = parse_bibtex(f"@article{{adam, title={{Adam}}, year=2014, {fields}}}").entries
    assert adam.arxiv_id == "1412.6980"
    assert adam.url == ""  # an arXiv address is the arXiv link, not a link of kind "Other"


def test_an_arxiv_citation_in_journal_is_a_preprint_not_a_journal_venue():
    review = review_bibliography(
        bibliography=parse_bibtex(
            "@article{megatron, title={Megatron-LM}, year=2019,"
            " journal={arXiv preprint arXiv:1909.08053}}"
        )
    )
    (item,) = review.entries
    assert item.entry.arxiv_id == "1909.08053"
    assert item.type == Publication.Type.PREPRINT
    assert item.venue.kind == Venue.Kind.PREPRINT_SERVER


def test_an_eprint_becomes_an_arxiv_link_on_import():
    import_bibtex(
        text="@misc{adam, title={Adam: A Method}, year=2014, eprint={1412.6980},"
        " archivePrefix={arXiv}, primaryClass={cs.LG}, url={https://arxiv.org/abs/1412.6980}}"
    )
    links = list(PublicationLink.objects.values_list("kind", "url"))
    assert links == [(PublicationLink.Kind.ARXIV, "https://arxiv.org/abs/1412.6980")]


def test_a_paper_already_here_with_an_arxiv_link_is_found_by_the_eprint_of_a_new_title():
    existing = make_publication(title="Adam", year=2014)
    PublicationLink.objects.create(
        publication=existing, kind=PublicationLink.Kind.ARXIV, url="https://arxiv.org/abs/1412.6980"
    )
    review = review_bibliography(
        bibliography=parse_bibtex(
            "@inproceedings{adam, title={Adam: A Method for Stochastic Optimization},"
            " year=2014, eprint={1412.6980}, archivePrefix={arXiv}}"
        )
    )
    (item,) = review.entries
    assert item.decision in (Decision.UPDATE, Decision.DUPLICATE)
    assert item.existing == existing
    assert "arXiv" in item.reason


def test_latex_math_in_titles_and_abstracts_reads_as_text():
    (entry,) = parse_bibtex(
        r"@article{m, title={Sorting in $O(n^2)$ Time with $\alpha_{i} \leq x^{10}$},"
        r" abstract={We prove $$E = mc^2$$ holds in $\mathcal{O}(\log n)$ rounds.}}"
    ).entries
    assert entry.title == "Sorting in O(n²) Time with αᵢ ≤ x¹⁰"
    assert entry.abstract == "We prove E = mc² holds in 𝒪(log n) rounds."


def test_math_is_stored_as_text_too():
    import_bibtex(text=r"@article{m, title={Sorting in $O(n \log n)$ and $O(n^2)$}, year=2020}")
    assert Publication.objects.get().title == "Sorting in O(n log n) and O(n²)"


def test_math_in_an_arxiv_title_and_abstract_reads_as_text_and_a_percent_stays():
    from xml.etree.ElementTree import fromstring

    from publications.identifiers import arxiv

    feed = fromstring(
        '<feed xmlns="http://www.w3.org/2005/Atom"><entry>'
        "<id>http://arxiv.org/abs/2101.00001v2</id><published>2021-01-01T00:00:00Z</published>"
        "<title>Sorting in $O(n^2)$ Time</title>"
        "<summary>We gain 5% over $\\alpha$-sorting.</summary>"
        "<author><name>Ada Lovelace</name></author></entry></feed>"
    )
    (entry,) = arxiv.entries(feed)
    work = arxiv.read_entry(entry)
    assert work.title == "Sorting in O(n²) Time"
    assert work.abstract == "We gain 5% over α-sorting."
