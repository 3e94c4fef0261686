"""A paper's page (/publications/<slug>/) renders its parts once per change and keeps them
(pages.views.publications.kept_publication_parts): an edit to anything the page shows reaches the next
request, and a draft's preview is never kept.

These tests commit for real (transaction=True): the change stamp moves when a transaction
commits, as on a live site. The page cache is off (SITE_CACHE=False) so that every request
renders its page, and only the kept parts are reused.
"""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from base import site_cache
from base.models import Lab
from news.models import NewsItem
from people.models import Person
from publications.models import Authorship, Publication, Venue
from tests.admin_forms import publication_form
from tests.factories import make_news, make_publication

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("no_page_cache")]

URL = "/publications/klotski/"


@pytest.fixture
def paper(member_with_papers):
    """Klotski, by Hang Zhu (a member) and Bo Zhao, with a news item; Ring is related."""
    paper = Publication.objects.get(slug="klotski")
    make_news(title="Klotski at NSDI", slug="klotski-at-nsdi").publications.add(paper)
    return paper


def article(page: str) -> str:
    return page.split('<article class="publication-page">')[1].split("</article>")[0]


def kept_papers() -> set[str]:
    """The ids of the papers whose page parts this process keeps."""
    store = site_cache._kept.get("publication-page")
    return (
        {key.rsplit(":", 1)[1].split(",")[0].strip("(") for key in store.values} if store else set()
    )


def test_a_kept_page_is_the_page_rendered_anew_with_one_query(client, paper):
    first = client.get(URL).text
    with CaptureQueriesContext(connection) as again:
        kept = client.get(URL).text
    # The paper's row: none for its authors, venue, news or related papers, nor the lab's row
    # (kept in the process too).
    assert len(again) == 1
    assert kept_papers() == {str(paper.pk)}
    site_cache.bump_stamp()  # nothing kept any more
    fresh = client.get(URL).text
    assert kept == first == fresh
    assert "<h1>Klotski</h1>" in kept
    assert '<meta name="citation_author" content="Bo Zhao">' in kept
    assert "Klotski at NSDI" in kept
    assert "More by <bdi>Hang Zhu</bdi>" in kept and ">Ring</a>" in kept


def save(obj, **fields):
    """A save as the admin makes it: the model's signals move the stamp when it commits."""
    for name, value in fields.items():
        setattr(obj, name, value)
    obj.save()


@pytest.mark.parametrize(
    "edit, shown, gone",
    [
        (
            lambda: save(Authorship.objects.get(name="Bo Zhao"), name="Bo Z. Zhao"),
            '<meta name="citation_author" content="Bo Z. Zhao">',
            "Bo Zhao",
        ),
        (
            lambda: save(Person.objects.get(slug="hang-zhu"), is_published=False),
            "Hang Zhu, Bo Zhao",
            'href="/people/hang-zhu/"',
        ),
        (
            lambda: save(Venue.objects.get(short_name="NSDI"), short_name="NSDI '23"),
            '(NSDI &#x27;23)">NSDI &#x27;23</span>',
            '(NSDI)">NSDI</span>',
        ),
        (
            lambda: save(NewsItem.objects.get(slug="klotski-at-nsdi"), title="Klotski wins"),
            "Klotski wins",
            "Klotski at NSDI",
        ),
        (
            lambda: save(NewsItem.objects.get(slug="klotski-at-nsdi"), is_published=False),
            "<h1>Klotski</h1>",
            "Klotski at NSDI",
        ),
        (
            lambda: save(Publication.objects.get(slug="ring"), title="Ring Two"),
            ">Ring Two</a>",
            ">Ring</a>",
        ),
        (
            lambda: save(Lab.objects.current(), name="Networks Lab"),
            "<title>Klotski · Networks Lab</title>",
            "no such text",
        ),
    ],
    ids=[
        "author renamed",
        "member unpublished",
        "venue renamed",
        "news retitled",
        "news unpublished",
        "related paper retitled",
        "lab renamed",
    ],
)
def test_an_edit_to_anything_the_page_shows_reaches_the_next_request(
    client, paper, edit, shown, gone
):
    client.get(URL)
    client.get(URL)
    edit()
    page = client.get(URL).text
    assert shown in page
    assert gone not in page


def test_a_save_of_the_paper_in_the_admin_reaches_its_kept_page(client, paper, editor):
    client.get(URL)
    staff = Client()
    staff.force_login(editor)
    change = reverse("admin:publications_publication_change", args=[paper.pk])
    assert staff.post(change, publication_form(paper, title="Klotski Revisited")).status_code == 302
    page = client.get(URL).text
    assert "<h1>Klotski Revisited</h1>" in page
    assert '<meta name="citation_title" content="Klotski Revisited">' in page
    assert "title = {{Klotski Revisited}}" in page
    assert "<h1>Klotski</h1>" not in page


def test_a_drafts_preview_is_never_kept_nor_shown_to_visitors(client, paper, editor):
    draft = make_publication(title="Secret Result", slug="secret", authors=["Ann Lee"])
    save(draft, is_published=False)
    staff = Client()
    staff.force_login(editor)
    for _ in range(2):
        preview = staff.get("/publications/secret/")
        assert "Only staff see this page" in preview.text
        assert "no-store" in preview["Cache-Control"]
    assert str(draft.pk) not in kept_papers()
    assert client.get("/publications/secret/").status_code == 404
    save(draft, is_published=True)
    published = client.get("/publications/secret/").text
    assert "Secret Result" in published
    assert "Only staff see this page" not in published


def test_a_staff_members_visit_keeps_nothing_a_visitor_should_not_see(client, paper, editor):
    staff = Client()
    staff.force_login(editor)
    staff.get(URL)
    with CaptureQueriesContext(connection) as visit:
        page = client.get(URL).text
    assert len(visit) == 1  # the parts the staff member's visit rendered, and the lab's row
    assert "/admin/" not in article(page)


def test_each_site_address_has_parts_of_its_own(client, paper, settings):
    """The JSON-LD and the related papers' COinS spans hold the paper's full address."""
    settings.ALLOWED_HOSTS = ["lab.example.org", "mirror.example.org"]
    first = client.get(URL, HTTP_HOST="lab.example.org").text
    second = client.get(URL, HTTP_HOST="mirror.example.org").text
    assert '"@id": "http://lab.example.org/publications/klotski/"' in first
    assert '"@id": "http://mirror.example.org/publications/klotski/"' in second
    assert "lab.example.org" not in second


def test_a_deleted_paper_is_a_404_at_once(client, paper):
    client.get(URL)
    Publication.objects.get(slug="klotski").delete()
    assert client.get(URL).status_code == 404


def test_a_process_keeps_the_parts_of_at_most_the_pages_it_is_told(client, paper, settings):
    settings.SITE_CACHE_LOCAL_PAPER_PAGES = 3  # one paper's three parts
    client.get(URL)
    client.get("/publications/ring/")
    assert kept_papers() == {str(Publication.objects.get(slug="ring").pk)}
    with CaptureQueriesContext(connection) as again:
        client.get(URL)
    assert len(again) > 2  # rendered anew
