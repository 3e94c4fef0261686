"""Venue names as real exports write them, typed by hand, with the venue each must match.

Sources: "dblp" (dblp.org's BibTeX), "acm" (ACM Digital Library), "ieee" (IEEE Xplore),
"usenix" (usenix.org's BibTeX), "publisher" (the venue's own site: OpenReview, PMLR, SPIE,
Elsevier, NeurIPS proceedings, ACL Anthology, NASA ADS for arXiv) and "lab" (what members
type). A line whose `venue` is None names a venue the site does not know; `proposed` is then
the (short name, full name) the import must offer for it. Several of those are the traps a
loose match falls into: HotNets is not NSDI, HotOS neither OSDI nor SOSP, INFOCOM is not the
journal Computer Communications.

The known venues are the seeded ones (fixtures/venues.json), the aliases below and the extra
venues below, as a lab doing systems and machine learning would have them.
"""

from typing import NamedTuple


class CorpusLine(NamedTuple):
    source: str
    text: str
    venue: str | None
    proposed: tuple[str, str] | None = None


# Aliases staff would give the seeded venues (one a line in the admin). PVLDB is VLDB here:
# since 2008 every VLDB research paper appears in the journal PVLDB and every PVLDB paper is
# presented at VLDB, and a lab lists such a paper under "VLDB". A lab that wants PVLDB apart
# creates it as a journal and moves these aliases to it.
SEEDED_ALIASES = {
    "arXiv": ("CoRR",),  # dblp files arXiv papers under its "Computing Research Repository"
    "NeurIPS": ("NIPS", "Advances in Neural Information Processing Systems"),
    "VLDB": ("PVLDB", "Proceedings of the VLDB Endowment"),
}

# (short name, full name, aliases, kind) of venues the lab adds beyond the seeded ones.
EXTRA_VENUES = [
    ("ATC", "USENIX Annual Technical Conference", ("USENIX ATC",), "conference"),
    (
        "MLSys",
        "Conference on Machine Learning and Systems",
        ("Proceedings of Machine Learning and Systems",),
        "conference",
    ),
    ("ICML", "International Conference on Machine Learning", (), "conference"),
    ("TON", "IEEE/ACM Transactions on Networking", ("ToN",), "journal"),
    ("TPDS", "IEEE Transactions on Parallel and Distributed Systems", (), "journal"),
    ("CCS", "ACM SIGSAC Conference on Computer and Communications Security", (), "conference"),
    ("CACM", "Communications of the ACM", (), "journal"),
    ("TOCS", "ACM Transactions on Computer Systems", (), "journal"),
    ("WWW", "The Web Conference", ("International World Wide Web Conference",), "conference"),
]

CORPUS = [
    # NSDI
    CorpusLine(
        "dblp",
        "19th USENIX Symposium on Networked Systems Design and Implementation, NSDI 2022, "
        "Renton, WA, USA, April 4-6, 2022",
        "NSDI",
    ),
    CorpusLine(
        "usenix",
        "21st USENIX Symposium on Networked Systems Design and Implementation (NSDI 24)",
        "NSDI",
    ),
    CorpusLine(
        "acm",
        "NSDI'22: Proceedings of the 19th USENIX Conference on Networked Systems Design and "
        "Implementation",
        "NSDI",
    ),
    CorpusLine(
        "usenix",
        "Proceedings of the 20th USENIX Symposium on Networked Systems Design and Implementation",
        "NSDI",
    ),
    CorpusLine("lab", "In Proc. of USENIX NSDI", "NSDI"),
    # OSDI
    CorpusLine(
        "usenix",
        "16th USENIX Symposium on Operating Systems Design and Implementation (OSDI 22)",
        "OSDI",
    ),
    CorpusLine(
        "dblp",
        "15th USENIX Symposium on Operating Systems Design and Implementation, OSDI 2021, "
        "July 14-16, 2021",
        "OSDI",
    ),
    CorpusLine(
        "acm",
        "OSDI'20: Proceedings of the 14th USENIX Conference on Operating Systems Design and "
        "Implementation",
        "OSDI",
    ),
    CorpusLine(
        "usenix",
        "Proceedings of the 17th USENIX Symposium on Operating Systems Design and Implementation",
        "OSDI",
    ),
    # SOSP
    CorpusLine("acm", "Proceedings of the 29th Symposium on Operating Systems Principles", "SOSP"),
    CorpusLine(
        "acm", "SOSP '23: Proceedings of the 29th Symposium on Operating Systems Principles", "SOSP"
    ),
    CorpusLine(
        "acm",
        "Proceedings of the ACM SIGOPS 28th Symposium on Operating Systems Principles",
        "SOSP",
    ),
    CorpusLine(
        "dblp",
        "Proceedings of the 29th Symposium on Operating Systems Principles, SOSP 2023, Koblenz, "
        "Germany, October 23-26, 2023",
        "SOSP",
    ),
    CorpusLine(
        "acm", "Proceedings of the twentieth ACM symposium on Operating systems principles", "SOSP"
    ),
    CorpusLine("lab", "{SOSP} '23", "SOSP"),
    # SIGCOMM
    CorpusLine(
        "acm", "Proceedings of the ACM Special Interest Group on Data Communication", "SIGCOMM"
    ),
    CorpusLine("acm", "SIGCOMM '22: Proceedings of the ACM SIGCOMM 2022 Conference", "SIGCOMM"),
    CorpusLine("acm", "Proceedings of the ACM SIGCOMM 2023 Conference", "SIGCOMM"),
    CorpusLine(
        "dblp",
        "SIGCOMM '22: ACM SIGCOMM 2022 Conference, Amsterdam, The Netherlands, "
        "August 22 - 26, 2022",
        "SIGCOMM",
    ),
    # POPL, and the journal that now publishes it (which is not POPL alone)
    CorpusLine(
        "dblp",
        "Proceedings of the 44th ACM SIGPLAN Symposium on Principles of Programming Languages, "
        "POPL 2017, Paris, France, January 18-20, 2017",
        "POPL",
    ),
    CorpusLine(
        "acm",
        "Conference Record of the Twenty-First Annual ACM SIGPLAN-SIGACT Symposium on Principles "
        "of Programming Languages",
        "POPL",
    ),
    CorpusLine(
        "dblp",
        "Proc. ACM Program. Lang.",
        None,
        ("Proc. ACM Program. Lang.", "Proc. ACM Program. Lang."),
    ),
    CorpusLine(
        "acm",
        "Proceedings of the ACM on Programming Languages",
        None,
        (
            "Proceedings of the ACM on Programming Languages",
            "Proceedings of the ACM on Programming Languages",
        ),
    ),
    # S&P, and USENIX Security, which is not S&P
    CorpusLine("ieee", "2022 IEEE Symposium on Security and Privacy (SP)", "S&P"),
    CorpusLine(
        "dblp",
        "43rd IEEE Symposium on Security and Privacy, SP 2022, San Francisco, CA, USA, "
        "May 22-26, 2022",
        "S&P",
    ),
    CorpusLine("lab", "IEEE S&P", "S&P"),
    CorpusLine(
        "usenix",
        "31st USENIX Security Symposium (USENIX Security 22)",
        None,
        ("USENIX Security", "USENIX Security Symposium"),
    ),
    # NeurIPS
    CorpusLine(
        "dblp",
        "Advances in Neural Information Processing Systems 35: Annual Conference on Neural "
        "Information Processing Systems 2022, NeurIPS 2022, New Orleans, LA, USA, "
        "November 28 - December 9, 2022",
        "NeurIPS",
    ),
    CorpusLine(
        "dblp",
        "Advances in Neural Information Processing Systems 30: Annual Conference on Neural "
        "Information Processing Systems 2017, December 4-9, 2017, Long Beach, CA, USA",
        "NeurIPS",
    ),
    CorpusLine("publisher", "Advances in Neural Information Processing Systems", "NeurIPS"),
    CorpusLine("lab", "NeurIPS", "NeurIPS"),
    # ICLR
    CorpusLine(
        "dblp",
        "The Eleventh International Conference on Learning Representations, ICLR 2023, "
        "Kigali, Rwanda, May 1-5, 2023",
        "ICLR",
    ),
    CorpusLine(
        "dblp",
        "The Tenth International Conference on Learning Representations, ICLR 2022, "
        "Virtual Event, April 25-29, 2022",
        "ICLR",
    ),
    CorpusLine("publisher", "International Conference on Learning Representations", "ICLR"),
    # ECCV, its workshops, and CVPR
    CorpusLine(
        "dblp",
        "Computer Vision - ECCV 2022 - 17th European Conference, Tel Aviv, Israel, "
        "October 23-27, 2022, Proceedings, Part XXIII",
        "ECCV",
    ),
    CorpusLine(
        "dblp",
        "Computer Vision - ECCV 2022 Workshops - Tel Aviv, Israel, October 23-27, 2022, "
        "Proceedings, Part I",
        None,
        ("ECCV Workshops", "ECCV Workshops"),
    ),
    CorpusLine(
        "ieee",
        "2022 IEEE/CVF Conference on Computer Vision and Pattern Recognition (CVPR)",
        None,
        ("CVPR", "IEEE/CVF Conference on Computer Vision and Pattern Recognition"),
    ),
    # EuroSys, and a workshop held with it
    CorpusLine(
        "acm",
        "EuroSys '23: Proceedings of the Eighteenth European Conference on Computer Systems",
        "EuroSys",
    ),
    CorpusLine(
        "acm", "Proceedings of the Seventeenth European Conference on Computer Systems", "EuroSys"
    ),
    CorpusLine(
        "dblp",
        "EuroSys '22: Seventeenth European Conference on Computer Systems, Rennes, France, "
        "April 5 - 8, 2022",
        "EuroSys",
    ),
    CorpusLine(
        "dblp",
        "EuroMLSys@EuroSys 2022: Proceedings of the 2nd European Workshop on Machine Learning "
        "and Systems, Rennes, France, 5 April 2022",
        None,
        ("EuroMLSys", "European Workshop on Machine Learning and Systems"),
    ),
    # HotCloud, and its neighbours SoCC, HotOS, HotNets
    CorpusLine(
        "usenix", "12th USENIX Workshop on Hot Topics in Cloud Computing (HotCloud 20)", "HotCloud"
    ),
    CorpusLine(
        "acm",
        "HotCloud'20: Proceedings of the 12th USENIX Conference on Hot Topics in Cloud Computing",
        "HotCloud",
    ),
    CorpusLine(
        "acm",
        "SoCC '22: Proceedings of the 13th Symposium on Cloud Computing",
        None,
        ("SoCC", "Symposium on Cloud Computing"),
    ),
    CorpusLine(
        "acm",
        "Proceedings of the ACM Symposium on Cloud Computing",
        None,
        ("ACM Symposium on Cloud Computing", "ACM Symposium on Cloud Computing"),
    ),
    CorpusLine(
        "acm",
        "HotOS '23: Proceedings of the 19th Workshop on Hot Topics in Operating Systems",
        None,
        ("HotOS", "Workshop on Hot Topics in Operating Systems"),
    ),
    CorpusLine(
        "dblp",
        "Proceedings of the 21st ACM Workshop on Hot Topics in Networks, HotNets 2022, Austin, "
        "Texas, November 14-15, 2022",
        None,
        ("HotNets", "ACM Workshop on Hot Topics in Networks"),
    ),
    # Journal of Biomedical Optics
    CorpusLine("dblp", "J. Biomed. Opt.", "JBO"),
    CorpusLine("publisher", "Journal of Biomedical Optics", "JBO"),
    CorpusLine(
        "publisher",
        "Biomedical Optics Express",
        None,
        ("Biomedical Optics Express", "Biomedical Optics Express"),
    ),
    # Computer Communications, and INFOCOM, which is not that journal
    CorpusLine("dblp", "Comput. Commun.", "Computer Communications"),
    CorpusLine("publisher", "Computer Communications", "Computer Communications"),
    CorpusLine(
        "ieee",
        "IEEE INFOCOM 2022 - IEEE Conference on Computer Communications",
        None,
        ("INFOCOM", "IEEE Conference on Computer Communications"),
    ),
    CorpusLine(
        "ieee",
        "IEEE INFOCOM 2022 - IEEE Conference on Computer Communications Workshops (INFOCOM WKSHPS)",
        None,
        ("INFOCOM WKSHPS", "IEEE Conference on Computer Communications Workshops"),
    ),
    CorpusLine("publisher", "Computer Networks", None, ("Computer Networks", "Computer Networks")),
    # arXiv
    CorpusLine("lab", "arXiv preprint arXiv:2501.01234", "arXiv"),
    CorpusLine("dblp", "CoRR", "arXiv"),
    CorpusLine("publisher", "arXiv e-prints", "arXiv"),
    CorpusLine("lab", "ArXiv", "arXiv"),
    CorpusLine("lab", "arXiv:2106.09685 [cs.CL]", "arXiv"),
    CorpusLine("publisher", "bioRxiv", None, ("bioRxiv", "bioRxiv")),
    # VLDB (PVLDB through its aliases), and SIGMOD, which is not VLDB
    CorpusLine("dblp", "Proc. VLDB Endow.", "VLDB"),
    CorpusLine("publisher", "Proceedings of the VLDB Endowment", "VLDB"),
    CorpusLine(
        "dblp",
        "Proceedings of the 33rd International Conference on Very Large Data Bases, University "
        "of Vienna, Austria, September 23-27, 2007",
        "VLDB",
    ),
    CorpusLine("lab", "PVLDB", "VLDB"),
    CorpusLine(
        "acm",
        "SIGMOD '22: Proceedings of the 2022 International Conference on Management of Data",
        None,
        ("SIGMOD", "International Conference on Management of Data"),
    ),
    # USENIX ATC
    CorpusLine(
        "dblp",
        "2022 USENIX Annual Technical Conference, USENIX ATC 2022, Carlsbad, CA, USA, "
        "July 11-13, 2022",
        "ATC",
    ),
    CorpusLine("usenix", "2023 USENIX Annual Technical Conference (USENIX ATC 23)", "ATC"),
    CorpusLine(
        "acm",
        "USENIX ATC '19: Proceedings of the 2019 USENIX Conference on Usenix Annual Technical "
        "Conference",
        "ATC",
    ),
    # MLSys
    CorpusLine(
        "dblp",
        "Proceedings of the Sixth Conference on Machine Learning and Systems, MLSys 2023, Miami, "
        "FL, USA, June 4-8, 2023",
        "MLSys",
    ),
    CorpusLine("publisher", "Proceedings of Machine Learning and Systems 5", "MLSys"),
    # ICML, and the series its proceedings appear in
    CorpusLine(
        "publisher", "Proceedings of the 39th International Conference on Machine Learning", "ICML"
    ),
    CorpusLine(
        "dblp",
        "International Conference on Machine Learning, ICML 2022, 17-23 July 2022, Baltimore, "
        "Maryland, USA",
        "ICML",
    ),
    CorpusLine(
        "publisher",
        "Proceedings of Machine Learning Research",
        None,
        ("Proceedings of Machine Learning Research", "Proceedings of Machine Learning Research"),
    ),
    # Journals of networking and systems
    CorpusLine("dblp", "IEEE/ACM Trans. Netw.", "TON"),
    CorpusLine("ieee", "IEEE/ACM Transactions on Networking", "TON"),
    CorpusLine("dblp", "IEEE Trans. Parallel Distributed Syst.", "TPDS"),
    CorpusLine("ieee", "IEEE Transactions on Parallel and Distributed Systems", "TPDS"),
    CorpusLine(
        "ieee",
        "IEEE Transactions on Computers",
        None,
        ("IEEE Transactions on Computers", "IEEE Transactions on Computers"),
    ),
    CorpusLine(
        "ieee",
        "IEEE Transactions on Mobile Computing",
        None,
        ("IEEE Transactions on Mobile Computing", "IEEE Transactions on Mobile Computing"),
    ),
    CorpusLine(
        "ieee",
        "IEEE Journal on Selected Areas in Communications",
        None,
        (
            "IEEE Journal on Selected Areas in Communications",
            "IEEE Journal on Selected Areas in Communications",
        ),
    ),
    CorpusLine(
        "ieee",
        "Proceedings of the IEEE",
        None,
        ("Proceedings of the IEEE", "Proceedings of the IEEE"),
    ),
    CorpusLine("dblp", "Commun. ACM", "CACM"),
    CorpusLine("acm", "Communications of the ACM", "CACM"),
    CorpusLine("dblp", "ACM Trans. Comput. Syst.", "TOCS"),
    CorpusLine(
        "acm",
        "ACM SIGOPS Operating Systems Review",
        None,
        ("ACM SIGOPS Operating Systems Review", "ACM SIGOPS Operating Systems Review"),
    ),
    # CCS
    CorpusLine(
        "acm",
        "CCS '22: Proceedings of the 2022 ACM SIGSAC Conference on Computer and Communications "
        "Security",
        "CCS",
    ),
    CorpusLine(
        "acm",
        "Proceedings of the 2021 ACM SIGSAC Conference on Computer and Communications Security",
        "CCS",
    ),
    # The Web Conference
    CorpusLine("acm", "WWW '22: Proceedings of the ACM Web Conference 2022", "WWW"),
    CorpusLine("acm", "Proceedings of the Web Conference 2021", "WWW"),
    # Venues the lab has not met yet
    CorpusLine(
        "ieee",
        "2021 IEEE 37th International Conference on Data Engineering (ICDE)",
        None,
        ("ICDE", "IEEE International Conference on Data Engineering"),
    ),
    CorpusLine(
        "acm",
        "Proceedings of the 22nd ACM Internet Measurement Conference",
        None,
        ("ACM Internet Measurement Conference", "ACM Internet Measurement Conference"),
    ),
    CorpusLine(
        "acm",
        "ASPLOS '23: Proceedings of the 28th ACM International Conference on Architectural "
        "Support for Programming Languages and Operating Systems, Volume 2",
        None,
        (
            "ASPLOS",
            "ACM International Conference on Architectural Support for Programming Languages "
            "and Operating Systems",
        ),
    ),
    CorpusLine(
        "usenix",
        "20th USENIX Conference on File and Storage Technologies (FAST 22)",
        None,
        ("FAST", "USENIX Conference on File and Storage Technologies"),
    ),
    CorpusLine(
        "dblp",
        "Computer Safety, Reliability, and Security - 41st International Conference, "
        "SAFECOMP 2022, Munich, Germany, September 6-9, 2022, Proceedings",
        None,
        ("SAFECOMP", "International Conference on Computer Safety, Reliability, and Security"),
    ),
    CorpusLine(
        "dblp",
        "Proceedings of the 23rd ACM/IFIP International Middleware Conference, Middleware 2022, "
        "Quebec, QC, Canada, November 7 - 11, 2022",
        None,
        ("Middleware", "ACM/IFIP International Middleware Conference"),
    ),
    CorpusLine(
        "acm",
        "MobiCom '22: Proceedings of the 28th Annual International Conference on Mobile "
        "Computing And Networking",
        None,
        ("MobiCom", "Annual International Conference on Mobile Computing And Networking"),
    ),
    CorpusLine(
        "publisher",
        "Proceedings of the 60th Annual Meeting of the Association for Computational Linguistics "
        "(Volume 1: Long Papers)",
        None,
        (
            "Annual Meeting of the Association for…",
            "Annual Meeting of the Association for Computational Linguistics",
        ),
    ),
]
