"""What a list page keeps per filter until the next change, beside its counts: the papers of
each page (pages.views.publications.listing_context) and the filter panel and year chart drawn from
the counts (the `{% kept %}` blocks of includes/publication_listing.html).

These tests commit for real (transaction=True): the change stamp moves when a transaction
commits, as on a live site. The page cache is off (SITE_CACHE=False) so that every request
renders its page from what is kept.
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from base import site_cache
from pages.views.publications import PER_PAGE
from tests.factories import make_publication, make_venue

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("no_page_cache")]

# The query that finds a page's papers: their ids, years, titles and slugs, in list order.
ROWS_QUERY = '"publications_publication"."slug" AS "slug" FROM "publications_publication"'


@pytest.fixture
def member(member_with_papers):
    make_publication(title="Elsewhere", year=2024, authors=["Ann Lee"])
    return member_with_papers


def rows_queries(queries: CaptureQueriesContext) -> list[str]:
    return [query["sql"] for query in queries if ROWS_QUERY in query["sql"]]


def templates(response) -> set[str]:
    return {template.name for template in response.templates}


def test_a_filters_page_of_papers_is_found_once_until_the_next_change(client, member):
    with CaptureQueriesContext(connection) as first:
        client.get("/publications/?author=hang-zhu")
    with CaptureQueriesContext(connection) as again:
        page = client.get("/publications/?author=hang-zhu").text
    assert len(rows_queries(first)) == 1
    assert rows_queries(again) == []
    assert ">Ring</a>" in page and ">Klotski</a>" in page and ">Elsewhere</a>" not in page

    make_publication(title="Newest", year=2025, authors=[member])  # commits: the stamp moves
    with CaptureQueriesContext(connection) as after:
        page = client.get("/publications/?author=hang-zhu").text
    assert len(rows_queries(after)) == 1
    assert page.index(">Newest</a>") < page.index(">Ring</a>") < page.index(">Klotski</a>")


def test_each_page_number_keeps_its_own_papers(client, member):
    for number in range(PER_PAGE):
        make_publication(title=f"Paper {number:02}", year=2000, authors=[member])
    first = client.get("/publications/?author=hang-zhu").text
    second = client.get("/publications/?author=hang-zhu&page=2").text
    assert client.get("/publications/?author=hang-zhu&page=2").text == second
    assert ">Ring</a>" in first and ">Ring</a>" not in second
    assert ">Paper 49</a>" in second and ">Paper 49</a>" not in first


def test_the_filter_panel_and_chart_are_drawn_once_per_filter(client, member):
    first = client.get("/publications/?venue=NSDI")
    again = client.get("/publications/?venue=NSDI")
    page_one = client.get("/publications/?venue=NSDI&page=1")
    drawn = {"includes/facet.html", "includes/year_chart.html"}
    assert drawn <= templates(first)
    assert not drawn & (templates(again) | templates(page_one))
    assert again.text == first.text
    site_cache.bump_stamp()  # nothing kept any more: drawn anew, the same
    assert client.get("/publications/?venue=NSDI").text == first.text


def test_an_edit_reaches_the_kept_panel_and_chart(client, member):
    page = client.get("/publications/").text
    assert 'value="NSDI"' in page and "2025" not in page
    make_publication(title="Newest", year=2025, venue=make_venue(short_name="OSDI"))
    page = client.get("/publications/").text
    assert 'name="venue" value="OSDI"' in page
    assert 'aria-label="2025: 1 publication"' in page  # the chart's new bar
    assert '<option value="2025">2025 (1)</option>' in page


def test_each_query_has_a_panel_of_its_own(client, member):
    """The panel's search box, ticked options and links keep the query as given."""
    ring = client.get("/publications/?q=Ring").text
    klotski = client.get("/publications/?q=Klotski").text
    assert 'name="q" value="Ring"' in ring and 'name="q" value="Klotski"' in klotski
    both = client.get("/publications/?q=Ring&venue=NSDI").text
    assert 'value="NSDI" checked' in both and 'value="NSDI" checked' not in ring


def test_a_groups_page_and_the_list_keep_panels_apart(client, member):
    """The same filters on another page of the site: the panel's form sends them to that page."""
    from people.models import Membership, ResearchGroup

    group = ResearchGroup.objects.create(name="Systems", slug="systems", is_published=True)
    Membership.objects.create(group=group, person=member)
    client.get("/publications/?venue=NSDI")
    page = client.get("/groups/systems/?venue=NSDI").text
    assert 'action="/groups/systems/"' in page
    assert 'action="/publications/"' not in page


def test_nothing_is_kept_with_debug_on(client, member, settings):
    """Under runserver a template edit shows on the next request."""
    settings.DEBUG = True
    client.get("/publications/?venue=NSDI")
    again = client.get("/publications/?venue=NSDI")
    assert "includes/facet.html" in templates(again)
