"""arXiv's API (export.arxiv.org/api/query?id_list=…): an Atom feed, one `entry` per paper, as
https://info.arxiv.org/help/api/user-manual.html describes it. An id arXiv cannot read comes
back as an entry titled "Error" whose id is under arxiv.org/api/errors."""

from xml.etree.ElementTree import Element

from base.identifiers import ARXIV_PDF, arxiv_id
from publications.bibtex.latex import math_as_text
from publications.identifiers.documents import element_text
from publications.identifiers.works import Author, Work, year_of

SOURCE = "arXiv"
ATOM = "{http://www.w3.org/2005/Atom}"


def is_arxiv(root: Element) -> bool:
    return root.tag == f"{ATOM}feed"


def entries(root: Element) -> list[Element]:
    return root.findall(f"{ATOM}entry")


def error(entry: Element) -> str:
    """arXiv's own sentence when the entry reports an error; "" for a paper."""
    if "/api/errors" in element_text(entry.find(f"{ATOM}id")):
        return element_text(entry.find(f"{ATOM}summary")) or "arXiv could not read the id."
    return ""


def read_entry(entry: Element, *, line: int = 0) -> Work:
    found = arxiv_id(element_text(entry.find(f"{ATOM}id")))
    return Work(
        source=SOURCE,
        entry_type="unpublished",
        title=math_as_text(element_text(entry.find(f"{ATOM}title"))),
        authors=[
            Author(name=element_text(author.find(f"{ATOM}name")))
            for author in entry.findall(f"{ATOM}author")
        ],
        year=year_of(element_text(entry.find(f"{ATOM}published"))),
        venue="arXiv",
        arxiv_id=found,
        pdf_url=f"{ARXIV_PDF}{found}" if found else "",
        abstract=math_as_text(element_text(entry.find(f"{ATOM}summary"))),
        line=line,
    )
