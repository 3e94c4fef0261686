"""Papers by identifier: what each service's documents read as, the pasted lines recognised or
refused, and the site's fetching, against recorded responses served on 127.0.0.1."""

import json
import time

import pytest

from publications.identifiers import orcid
from publications.identifiers.documents import MAX_DOCUMENT_BYTES, Unreadable
from publications.identifiers.fetching import FetchFailed, default_fetch, fetch_live
from publications.identifiers.gathering import gather, read_export
from publications.identifiers.pasted import Kind, recognise
from tests.identifier_service import DATA, ORCID, recorded_services


def read(name: str):
    bibliography = read_export((DATA / name).read_bytes(), name=name)
    assert bibliography.problems == ()
    return {entry.key: entry for entry in bibliography.entries}


@pytest.fixture
def services(settings):
    with recorded_services() as service:
        settings.IDENTIFIER_FETCHING = True
        settings.IDENTIFIER_SERVICE_URLS = service.urls()
        settings.IDENTIFIER_CONTACT_EMAIL = "lab-admin@example.org"
        yield service


# Each service's documents ---------------------------------------------------------------------


def test_a_crossref_work_reads_as_a_proceedings_entry_with_authors_orcids_and_its_pdf():
    (entry,) = read("crossref-work.json").values()
    assert entry.key == entry.doi == "10.1145/3603269.3604826"
    assert entry.entry_type == "inproceedings"
    assert entry.title == "Scheduling Optical Circuits Without a Scheduler"
    assert entry.authors == ("Hang Zhu", "Ada Lovelace", "José Núñez")
    assert entry.orcids == (ORCID, "", "")
    assert (entry.year, entry.venue) == (2023, "Proceedings of the ACM SIGCOMM 2023 Conference")
    assert entry.pdf_url == "https://dl.acm.org/doi/pdf/10.1145/3603269.3604826"
    assert (
        entry.abstract == "We route optical circuits without a central scheduler & show it scales."
    )


def test_a_crossref_work_list_reads_journal_articles_and_theses():
    entries = read("crossref-works.json")
    article, thesis = entries["10.1109/TNET.2024.3370001"], entries["10.5555/thesis.2022.017"]
    assert (article.entry_type, article.venue) == ("article", "IEEE/ACM Transactions on Networking")
    assert article.orcids == ("", ORCID)
    assert (thesis.entry_type, thesis.venue, thesis.year) == (
        "phdthesis",
        "Example University",
        2022,
    )


def test_openalex_works_read_their_type_venue_abstract_and_arxiv_id():
    entries = read("openalex-author-works.json")
    paper, preprint = entries["10.1145/3600006.3613140"], entries["arXiv:2401.01234"]
    assert paper.entry_type == "inproceedings"
    assert paper.venue == "Proceedings of the 29th Symposium on Operating Systems Principles"
    assert paper.abstract == "Consensus needs four round trips."
    assert paper.authors == ("Hang Zhu", "Grace Hopper") and paper.orcids == (ORCID, "")
    assert (preprint.entry_type, preprint.venue, preprint.eprint_type) == (
        "unpublished",
        "arXiv",
        "arXiv",
    )
    assert preprint.arxiv_id == "2401.01234" and preprint.doi == ""


def test_orcid_full_works_name_their_authors_and_a_summary_alone_names_none():
    full = read("orcid-works-bulk.json")
    paper, preprint = full["10.1145/3544216.3544265"], full["arXiv:2312.00042"]
    assert paper.entry_type == "inproceedings" and paper.authors == ("Hang Zhu", "Barbara Liskov")
    assert paper.orcids == (ORCID, "")
    assert preprint.title == "Packet Scheduling at Line Rate: A Programmable Approach"
    assert preprint.arxiv_id == "2312.00042" and preprint.entry_type == "unpublished"
    summary = read("orcid-works-summary.json")
    assert set(summary) == set(full)
    assert all(entry.authors == () for entry in summary.values())
    assert all("has no authors." in entry.warnings for entry in summary.values())


def test_a_dblp_person_page_reads_its_papers_and_leaves_out_edited_volumes():
    entries = read("dblp-person.xml")
    assert list(entries) == [
        "dblp:conf/nsdi/ZhuL24",
        "arXiv:2402.05555",
        "10.1145/3611111",
    ]
    nsdi = entries["dblp:conf/nsdi/ZhuL24"]
    # dblp's trailing period, markup in the title and namesake number are not the paper's.
    assert nsdi.title == "Ring: Rebalancing Load with No Coordination"
    assert nsdi.authors == ("Hang Zhu", "Ada Lovelace") and nsdi.orcids == (ORCID, "")
    assert (nsdi.venue, nsdi.year) == ("NSDI", 2024)
    assert nsdi.pdf_url == "https://www.usenix.org/system/files/nsdi24-zhu.pdf"
    corr = entries["arXiv:2402.05555"]
    assert (corr.entry_type, corr.venue, corr.doi) == ("unpublished", "arXiv", "")
    assert entries["10.1145/3611111"].venue == "Commun. ACM"


def test_an_arxiv_feed_reads_as_preprints_without_versions():
    entries = read("arxiv-query.xml")
    adam = entries["arXiv:1412.6980"]
    assert adam.title == "Adam: A Method for Stochastic Optimization"
    assert adam.authors == ("Diederik P. Kingma", "Jimmy Ba")
    assert (adam.year, adam.venue, adam.arxiv_id) == (2014, "arXiv", "1412.6980")
    assert adam.pdf_url == "https://arxiv.org/pdf/1412.6980"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b'{"message-type": "work", "message": ', "is not valid JSON"),
        (b"<dblpperson><r><article>", "is not valid XML"),
        (b'{"hello": "world"}', "is JSON, but not an export this site reads"),
        (b"<html><body>Not found</body></html>", "is XML, but not an export this site reads"),
        (b"@article{key, title={BibTeX}}", "is not JSON or XML"),
        (b"\xff\xfe{}", "is not JSON or XML"),
        (b"[" * 100_000 + b"]" * 100_000, "nests its values too deeply"),
        ((DATA / "arxiv-error.xml").read_bytes(), "incorrect id format for 1234.12345"),
    ],
)
def test_a_broken_or_foreign_file_is_refused_with_a_sentence(content, message):
    with pytest.raises(Unreadable, match=message):
        read_export(content, name="The file")


def test_an_xml_bomb_is_refused_before_any_entity_is_expanded():
    bomb = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
<dblpperson><r><article><title>&lol3;</title></article></r></dblpperson>"""
    external = b"""<?xml version="1.0"?>
<!DOCTYPE feed [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<feed xmlns="http://www.w3.org/2005/Atom"><entry><title>&secret;</title></entry></feed>"""
    for document in (bomb, external):
        with pytest.raises(Unreadable, match="declares XML entities"):
            read_export(document, name="The file")


def test_a_file_of_more_works_than_an_import_reads_is_refused():
    works = b'{"results": [' + b",".join([b'{"id": "https://openalex.org/W1"}'] * 25_001) + b"]}"
    with pytest.raises(Unreadable, match="lists 25,001 works; an import reads at most 25,000"):
        read_export(works, name="The file")


def test_a_file_larger_than_the_bound_is_refused_unread():
    with pytest.raises(Unreadable, match="larger than 8 MB"):
        read_export(b"[" + b" " * MAX_DOCUMENT_BYTES + b"]", name="The file")


# Pasted lines ---------------------------------------------------------------------------------


def test_pasted_lines_are_each_recognised_and_duplicates_read_once():
    found, refused = recognise(
        "10.1145/3603269.3604826\n"
        "https://doi.org/10.1145/3603269.3604826\n"
        "\n"
        "arXiv:1412.6980v9\n"
        "https://arxiv.org/abs/2101.00001\n"
        "10.48550/arXiv.2402.05555\n"
        "https://orcid.org/0000-0002-1825-0097\n"
        "https://dblp.org/pid/z/HangZhu.html\n"
        "homepages/s/MichaelStonebraker\n"
        "A5023888391\n"
        "https://openalex.org/W4386710001\n"
    )
    assert refused == []
    assert [(item.kind, item.value, item.line) for item in found] == [
        (Kind.DOI, "10.1145/3603269.3604826", 1),
        (Kind.ARXIV, "1412.6980", 4),
        (Kind.ARXIV, "2101.00001", 5),
        (Kind.ARXIV, "2402.05555", 6),
        (Kind.ORCID, ORCID, 7),
        (Kind.DBLP, "z/HangZhu", 8),
        (Kind.DBLP, "s/MichaelStonebraker", 9),
        (Kind.OPENALEX_AUTHOR, "A5023888391", 10),
        (Kind.OPENALEX_WORK, "W4386710001", 11),
    ]


def test_a_line_that_is_no_identifier_or_a_mistyped_orcid_is_refused_by_line():
    found, refused = recognise("10.1145/3603269.3604826\nhello world\n0000-0002-1825-0098\n")
    assert [item.value for item in found] == ["10.1145/3603269.3604826"]
    assert refused[0].startswith("Line 2: “hello world” is not a DOI, an arXiv id, an ORCID iD")
    assert refused[1].startswith("Line 3: “0000-0002-1825-0098” is not an ORCID iD")


# Fetching ---------------------------------------------------------------------------------


def test_fetching_is_off_unless_the_site_turns_it_on(settings):
    assert settings.IDENTIFIER_FETCHING is False
    found, _ = recognise("10.1145/3603269.3604826")
    gathered = gather(found, fetch=default_fetch())
    assert gathered.works == []
    assert "IDENTIFIER_FETCHING is off" in gathered.problems[0]


def test_pasted_identifiers_are_fetched_from_each_service(services):
    found, _ = recognise(
        "10.1145/3603269.3604826\n1412.6980\n2101.00001\n0000-0002-1825-0097\nz/HangZhu\n"
        "A5023888391"
    )
    gathered = gather(found, fetch=default_fetch())
    assert gathered.problems == []
    keys = [entry.key for entry in gathered.bibliography().entries]
    assert keys == [
        "arXiv:1412.6980",
        "arXiv:2101.00001",
        "10.1145/3603269.3604826",
        "10.1145/3544216.3544265",
        "arXiv:2312.00042",
        "dblp:conf/nsdi/ZhuL24",
        "arXiv:2402.05555",
        "10.1145/3611111",
        "10.1145/3600006.3613140",
        "arXiv:2401.01234",
    ]
    # ORCID's full works were asked for, so the authors are named.
    orcid_paper = gathered.bibliography().entries[3]
    assert orcid_paper.authors == ("Hang Zhu", "Barbara Liskov")
    agents = {headers["User-Agent"] for _, headers in services.requests}
    assert agents == {"lab-directory/1.0 (research lab portal; mailto:lab-admin@example.org)"}


def test_a_pasted_openalex_work_id_is_fetched_as_that_work(services):
    found, _ = recognise("https://openalex.org/W4386710001")
    (entry,) = gather(found, fetch=default_fetch()).bibliography().entries
    assert (entry.key, entry.title) == ("10.1145/3600006.3613140", "Consensus in Four Round Trips")


def test_an_identifier_no_service_knows_is_named_with_its_line(services):
    found, _ = recognise("10.1145/0000000.0000000\n\n1234.12345\nx/NobodyAtAll")
    gathered = gather(found, fetch=default_fetch())
    assert gathered.works == []
    assert gathered.problems == [
        "arXiv: incorrect id format for 1234.12345",
        "Line 1: no DOI “10.1145/0000000.0000000” was found. Check it, or add the paper by hand.",
        "Line 4: no dblp person key “x/NobodyAtAll” was found. Check it, or add the paper by hand.",
    ]


def test_a_service_that_trickles_its_answer_is_given_up_on_within_the_timeout(services, settings):
    settings.IDENTIFIER_FETCH_TIMEOUT_SECONDS = 2
    started = time.monotonic()
    with pytest.raises(FetchFailed, match="took longer than 2 seconds"):
        fetch_live(f"{services.url}/slow/")
    assert time.monotonic() - started < 10  # a generous bound: the point is that it ends


def test_an_answer_larger_than_the_bound_is_refused(services):
    with pytest.raises(FetchFailed, match="larger than 8 MB"):
        fetch_live(f"{services.url}/huge/")


def test_a_service_that_cannot_be_reached_is_a_sentence(settings):
    with recorded_services() as service:
        closed = service.url
    with pytest.raises(FetchFailed, match="could not be reached"):
        fetch_live(f"{closed}/crossref/works/10.1/x")


def test_identifiers_left_when_the_time_for_a_paste_is_up_are_refused_by_line():
    def slow_fetch(url: str) -> bytes:
        time.sleep(0.3)
        return (DATA / "crossref-work.json").read_bytes()

    found, _ = recognise("10.1145/1\n10.1145/2\n10.1145/3\n10.1145/4")
    gathered = gather(found, fetch=slow_fetch, seconds=0.5)
    assert len(gathered.works) == 2
    assert gathered.problems == [
        f"Line {line}: not asked: the lines above took more than 0.5 seconds. Paste this line "
        "and those after it in a second round."
        for line in (3, 4)
    ]


def test_one_authors_many_pages_stop_when_the_time_for_a_paste_is_up_keeping_those_read():
    """The paste's deadline bounds every request, not only each line: an OpenAlex author whose
    works come in many slow pages (up to 50) stops at it, and a paste holds the editor for
    PASTE_SECONDS and one time-out, not 50 time-outs. The pages read before are reviewed (pasted
    again, the line would stop at the same page), and its line says where it was cut."""
    page = json.loads((DATA / "openalex-author-works.json").read_bytes())
    page["meta"]["next_cursor"] = "more"
    asked = []

    def slow_pages(url: str) -> bytes:
        asked.append(url)
        time.sleep(0.3)
        return json.dumps(page).encode()

    found, _ = recognise("https://openalex.org/A5023888391")
    gathered = gather(found, fetch=slow_pages, seconds=0.5)
    assert len(asked) == 2  # 0.6 s of pages; then stopped, not 50 pages
    assert len(gathered.works) == 2 * len(page["results"])
    assert gathered.only_late
    assert gathered.problems == [
        "Line 1: cut after 4 works, as asking took longer than the time a paste may take: "
        "OpenAlex's pages of works after page 2 were not read. The works read are in the review; "
        "for the rest, upload the list of works OpenAlex exports for this author."
    ]


def test_an_orcid_record_cut_by_the_time_for_a_paste_keeps_the_full_works_read(monkeypatch):
    """ORCID's full works come a batch at a time: those of the batches read in time are
    reviewed, and the line says how many of the works the record lists were not read."""
    monkeypatch.setattr(orcid, "BULK_SIZE", 1)
    summary = (DATA / "orcid-works-summary.json").read_bytes()
    bulk = (DATA / "orcid-works-bulk.json").read_bytes()
    asked = []

    def slow_orcid(url: str) -> bytes:
        asked.append(url)
        if url.endswith("/works"):
            return summary
        time.sleep(0.6)
        return bulk

    found, _ = recognise(ORCID)
    gathered = gather(found, fetch=slow_orcid, seconds=0.5)
    assert len(asked) == 2  # the summary, one batch of one work; the second batch not asked
    # The full records of the first batch (the recorded answer holds two), with their authors.
    assert len(gathered.works) == 2 and all(work.authors for work in gathered.works)
    assert gathered.problems == [
        "Line 1: cut after 2 works, as asking took longer than the time a paste may take: the "
        "last 1 of the 2 works it lists were not read. The works read are in the review; for the "
        "rest, upload the list of works ORCID exports for this author."
    ]
