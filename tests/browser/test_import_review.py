"""The import's review of a real dblp export fits a 1280 px screen: no sideways scrolling, a
compact row an entry (issue 27: it was 6,400 px tall for 23 entries and scrolled sideways)."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import signed_in_page

IMPORT = "/admin/publications/publication/import-bibtex/"
ENTRIES = 23
# Height of the review's table per entry, at most: a row of two or three lines is ~60 px.
MOST_PIXELS_PER_ENTRY = 110


def dblp_export() -> str:
    """23 papers as dblp writes them: long keys, long author lists, dblp's long booktitles,
    and the crossref parent they share."""
    entries = []
    for number in range(ENTRIES):
        authors = " and ".join(
            f"Author{number}x{position} Surname{position}"
            for position in range(40 if number == 0 else 8)
        )
        entries.append(
            f"@inproceedings{{DBLP:conf/osdi/ReviewFitsTheScreenZhengLZZCHWXZXG22x{number},\n"
            f"  author = {{{authors}}},\n"
            f"  title = {{Review Fits the Screen {number}: Automating Inter- and Intra-Operator "
            f"Parallelism for Distributed Deep Learning}},\n"
            f"  crossref = {{DBLP:conf/osdi/2022}},\n"
            f"  url = {{https://www.usenix.org/conference/osdi22/presentation/a-very-long-"
            f"address-without-any-break-{number}}},\n"
            "}\n"
        )
    entries.append(
        "@proceedings{DBLP:conf/osdi/2022,\n"
        "  title = {16th {USENIX} Symposium on Operating Systems Design and Implementation,"
        " {OSDI} 2022, Carlsbad, CA, USA, July 11-13, 2022},\n"
        "  publisher = {{USENIX} Association},\n  year = {2022},\n}\n"
    )
    return "".join(entries)


@pytest.fixture
def wide_page(browser, site_url):
    page = signed_in_page(browser, site_url)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.set_default_timeout(20_000)
    yield page
    page.context.close()


def test_the_review_of_a_dblp_export_fits_1280_pixels_in_compact_rows(wide_page):
    page = wide_page
    page.goto(IMPORT)
    page.get_by_label("Or paste BibTeX").fill(dblp_export())
    page.get_by_role("button", name="Review the entries").click()

    expect(page.locator(".import-summary")).to_have_text(
        f"{ENTRIES} entries, {ENTRIES} new, 0 likely updates, 0 duplicates."
    )
    rows = page.locator("#result_list tbody tr")
    expect(rows).to_have_count(ENTRIES)  # the proceedings volume is no row of its own
    widths = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert widths[0] <= widths[1], f"scrolls sideways: {widths}"
    height = page.locator("#result_list").bounding_box()["height"]
    assert height / ENTRIES <= MOST_PIXELS_PER_ENTRY, f"{height / ENTRIES:.0f} px per entry"
    # The 40 authors of the first entry: ten shown, the rest folded away.
    expect(rows.first.locator(".import-more-authors summary")).to_have_text("and 30 more")
    # New papers are ticked to import; the breadcrumbs name the BibTeX import.
    assert not page.locator('input[name="skip"]:checked').count()
    expect(page.locator(".breadcrumbs")).to_contain_text("Import BibTeX")
