"""What the site's accessibility checks cover: the one list that the browser tests parametrise
themselves from and that the accessibility statement (/accessibility/) shows, so the statement
says what the tests run, no more and no less (tests/pages/test_accessibility_statement.py
compares it with what pytest collects).
"""

from dataclasses import dataclass, replace

from django.utils.functional import Promise
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

STANDARD = "WCAG 2.2 at level AA"
STANDARD_URL = "https://www.w3.org/TR/WCAG22/"

# Screen sizes every page type is checked at, in CSS pixels.
VIEWPORTS: dict[str, dict[str, int]] = {
    "phone": {"width": 390, "height": 844},
    "desktop": {"width": 1440, "height": 900},
}
# The colour schemes a visitor's system may ask for (prefers-color-scheme).
SCHEMES = ("light", "dark")
# axe's findings of these impacts fail the tests; minor and moderate ones are not checked.
AXE_BLOCKING_IMPACTS = ("serious", "critical")

AXE = "axe"  # axe-core, every rule (WCAG 2.0, 2.1 and 2.2, A and AA, colour contrast included)
NU = "nu"  # the W3C's Nu HTML Checker: no error


@dataclass(frozen=True)
class PageType:
    name: str  # the tests' parameter id
    label: str | Promise  # as the statement names it, in the reader's language
    path: str
    checks: frozenset[str] = frozenset({AXE, NU})
    status: int = 200
    # Shown by the site only once staff add a research group (the seed has none): the browser
    # tests add one for the modules that check these pages.
    needs_group: bool = False
    # Shown with talks and events, which the seed has none of either (fixtures/NOTES.md): the
    # browser tests add a few for the modules that check these pages.
    needs_events: bool = False


BOTH = frozenset({AXE, NU})
PAGE_TYPES = [
    PageType("home", _("Home page"), "/"),
    PageType("people", _("People"), "/people/"),
    PageType("profile", _("A member's profile"), "/people/hang-zhu/"),
    PageType("profile-with-advisors", _("A student's profile, with advisors"), "/people/zerui-wang/", frozenset({NU})),
    PageType("cv", _("A member's CV"), "/people/hang-zhu/cv/"),
    PageType("publications", _("Publications"), "/publications/"),
    PageType("publications-filtered", _("Publications, filtered by venue and year"), "/publications/?venue=NSDI&year=2024"),
    PageType("publications-by-words", _("Publications, filtered by words and type"), "/publications/?q=cache&type=conference-paper", frozenset({NU})),
    PageType("publication", _("A publication, with its related papers"), "/publications/causalmesh/"),
    PageType("news", _("News"), "/news/"),
    PageType("news-item", _("A news item"), "/news/jet-long-accepted-to-neurips-2026/"),
    PageType("events", _("Talks and events"), "/events/", needs_events=True),
    PageType("event", _("A talk, with its time in its time zone"), "/events/caching-at-scale/", needs_events=True),
    PageType("groups", _("Research groups"), "/groups/", needs_group=True),
    PageType("group", _("A research group"), "/groups/ml-systems/", needs_group=True),
    PageType("areas", _("Research areas"), "/areas/", needs_group=True),
    PageType("area", _("A research area"), "/areas/ml-systems-area/", needs_group=True),
    PageType("network", _("The co-author network"), "/network/"),
    PageType("search", _("Site search results"), "/search/?q=zhang"),
    PageType("search-news", _("Site search finding news"), "/search/?q=jet", frozenset({NU})),
    PageType("search-topic", _("Site search finding papers on a topic"), "/search/?q=serverless"),
    PageType("search-empty", _("Site search before searching"), "/search/", frozenset({NU})),
    PageType("accessibility", _("This accessibility statement"), "/accessibility/"),
    PageType("not-found", _("Page not found"), "/no-such-page/", status=404),
    PageType("admin-login", _("Staff sign-in"), "/admin/login/", frozenset({NU})),
    PageType("api-docs", _("The API's documentation"), "/api/docs", frozenset({NU})),
]  # fmt: skip


# Every public page type is checked in Simplified Chinese too, at its address under /zh-hans/
# (docs/decisions/languages.md): the same checks on the same page in the other language. The
# staff sign-in and the API's documentation are in English only.
CHINESE_PREFIX = "/zh-hans"
ENGLISH_ONLY = frozenset({"admin-login", "api-docs"})


def in_chinese(page: PageType) -> PageType:
    return replace(
        page,
        name=f"{page.name}-zh-hans",
        label=format_lazy(_("{label}, in Chinese"), label=page.label),
        path=CHINESE_PREFIX + page.path,
    )


PAGE_TYPES += [in_chinese(page) for page in PAGE_TYPES if page.name not in ENGLISH_ONLY]


def pages_checked_by(check: str) -> dict[str, PageType]:
    """The page types `check` runs on, by name."""
    return {page.name: page for page in PAGE_TYPES if check in page.checks}


@dataclass(frozen=True)
class Journey:
    test: str  # the test function in tests/browser/test_keyboard.py
    description: str | Promise


# Done with the keyboard alone (Tab, Shift+Tab, Enter, Space, Escape), at both screen sizes.
KEYBOARD_JOURNEYS = [
    Journey(
        "test_skip_link_then_every_filter_control_by_keyboard",
        _(
            "The skip link, then every control of the publication filters: words, a venue, the years."
        ),
    ),
    Journey(
        "test_apply_a_facet_then_remove_its_chip_by_keyboard",
        _("Applying a filter of the publication list, then removing it with its chip."),
    ),
    Journey(
        "test_abstract_and_cite_panels_open_and_close_by_keyboard",
        _(
            "Opening and closing a paper's Abstract and Cite panels, focus staying on their buttons."
        ),
    ),
    Journey(
        "test_site_search_by_keyboard",
        _("Searching the site from the header and following a result."),
    ),
    Journey(
        "test_chart_bars_are_links_reached_by_keyboard",
        _("Reaching each bar of a profile's chart of publications per year, and following one."),
    ),
    Journey(
        "test_admin_author_order_has_keyboard_moves",
        _("In the admin, moving a paper's author up and down without dragging."),
    ),
]

# The words the statement names the sizes, schemes and blocking impacts by.
VIEWPORT_LABELS = {"phone": _("Phone"), "desktop": _("Desktop")}
SCHEME_LABELS = {"light": _("Light colour scheme"), "dark": _("Dark colour scheme")}
IMPACT_LABELS = {"serious": _("serious"), "critical": _("critical")}

LIMITATIONS = [
    _(
        "Automated checks find only part of the problems a person meets; pages are also tried by "
        "hand with the keyboard, but not yet regularly with every screen reader."
    ),
    _("axe findings rated minor or moderate do not stop a release."),
    _(
        "The CV as PDF is written as tagged PDF/UA-1 and the tests read back its tags, language, "
        "title and reading order, but no full PDF/UA validator (veraPDF) runs on it yet; the CV's "
        "web page has the same content."
    ),
    _("The co-author network is a picture; the table under it says the same for screen readers."),
    _(
        "The site's own words are in English and Simplified Chinese (under /zh-hans/), and every "
        "page type above is checked in both. Titles, biographies, news and descriptions are "
        "shown in Chinese where staff have translated them, and otherwise as written, marked "
        "as English; names are shown as written."
    ),
    _("Documents linked from a page (papers' PDFs, slides) are the authors' and are not checked."),
]
