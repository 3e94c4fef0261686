"""dblp's XML: a person's page (`https://dblp.org/pid/{pid}.xml`, root `dblpperson`, each
publication an `r` holding one record) or records under a `dblp` root, as dblp.dtd
(https://dblp.org/xml/dblp.dtd) describes them."""

import re
from xml.etree.ElementTree import Element

from base.identifiers import arxiv_id
from publications.identifiers.documents import element_text
from publications.identifiers.works import Author, Work, year_of

SOURCE = "dblp"
ENTRY_TYPES = {
    "article": "article",
    "inproceedings": "inproceedings",
    "incollection": "incollection",
    "book": "book",
    "phdthesis": "phdthesis",
    "mastersthesis": "mastersthesis",
}
# What a person's page lists beside papers: volumes they edited, their own homepage record,
# data sets. Left out, as a crossref parent is.
LEFT_OUT = {"proceedings", "www", "data", "person"}
# dblp tells namesakes apart with a number: "Wei Wang 0001".
HOMONYM_NUMBER = re.compile(r"\s+\d{4}$")


def is_dblp(root: Element) -> bool:
    return root.tag in ("dblpperson", "dblp")


def records(root: Element) -> list[Element]:
    """The publication records, in the page's order (newest first on a person's page)."""
    found = []
    for child in root:
        if child.tag == "r":
            found += [record for record in child if record.tag in ENTRY_TYPES]
        elif child.tag in ENTRY_TYPES:
            found.append(child)
    return found


def read_record(record: Element, *, line: int = 0) -> Work:
    informal = record.get("publtype") == "informal"
    addresses = [element_text(ee) for ee in record.findall("ee")]
    found_arxiv = next((found for address in addresses if (found := arxiv_id(address))), "")
    doi = next((address for address in addresses if "doi.org/10." in address), "")
    if arxiv_id(doi):
        doi = ""
    pdf = next((address for address in addresses if address.lower().endswith(".pdf")), "")
    venue = next(
        (
            element_text(element)
            for name in ("booktitle", "journal", "school", "publisher")
            if (element := record.find(name)) is not None
        ),
        "",
    )
    entry_type = "unpublished" if informal and found_arxiv else ENTRY_TYPES[record.tag]
    if entry_type == "unpublished":
        venue = "arXiv"  # dblp's "CoRR"
    url = next(
        (
            address
            for address in addresses
            if address not in (doi, pdf) and not arxiv_id(address) and "doi.org/" not in address
        ),
        "",
    )
    return Work(
        source=SOURCE,
        entry_type=entry_type,
        title=element_text(record.find("title")).removesuffix("."),
        authors=[
            Author(name=HOMONYM_NUMBER.sub("", element_text(author)), orcid=author.get("orcid", ""))
            for author in record.findall("author")
        ],
        year=year_of(element_text(record.find("year"))),
        venue=venue,
        doi=doi,
        arxiv_id=found_arxiv,
        url=url,
        pdf_url=pdf,
        line=line,
        record=f"dblp:{record.get('key', '')}" if record.get("key") else "",
    )
