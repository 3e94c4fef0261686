"""Both Atom feeds read back with feedparser, as feed readers read them: valid by RFC 4287
(every entry has its `<updated>`, even a paper without a year), an empty feed for a member
without news, and a refusal a feed reader can show for a value no list knows; the API's news
filter answers the same way, in JSON."""

import subprocess
from pathlib import Path
from xml.etree import ElementTree

import feedparser
import pytest

from news.models import NewsItem
from tests.cases import SeededTestCase
from tests.factories import make_news, make_person, make_publication

pytestmark = pytest.mark.django_db

ATOM = "{http://www.w3.org/2005/Atom}"
# RFC 4287's own schema (Appendix B), in RELAX NG's compact syntax, which jing reads.
ATOM_SCHEMA = Path(__file__).parent.parent / "data" / "atom.rnc"


def read_feed(client, url: str) -> feedparser.FeedParserDict:
    response = client.get(url)
    assert response.status_code == 200
    assert rfc_4287_problems(response.content) == []
    feed = feedparser.parse(response.content)
    assert not feed.bozo, feed.get("bozo_exception")
    return feed


def rfc_4287_problems(content: bytes) -> list[str]:
    """What RFC 4287 requires of a feed and each entry that a feed reader cannot make up: one
    id, title and updated each, an author (the entry's or the feed's), and a link or content."""
    root = ElementTree.fromstring(content)
    problems = []
    feed_has_author = root.find(f"{ATOM}author") is not None
    for number, element in enumerate([root, *root.findall(f"{ATOM}entry")]):
        where = "feed" if number == 0 else f"entry {number}"
        for name in ("id", "title", "updated"):
            if len(element.findall(f"{ATOM}{name}")) != 1:
                problems.append(f"{where} has not one <{name}>")
        if number and not (feed_has_author or element.find(f"{ATOM}author") is not None):
            problems.append(f"{where} has no <author>, nor has the feed")
        has_link = element.find(f"{ATOM}link[@rel='alternate']") is not None
        if number and not (has_link or element.find(f"{ATOM}content") is not None):
            problems.append(f"{where} has neither an alternate link nor content")
    return problems


def test_every_entry_of_the_publication_feed_has_an_updated_time_even_without_a_year(client):
    make_publication(title="Dated", year=2024, authors=["Hang Zhu"])
    make_publication(title="Undated", year=None)
    feed = read_feed(client, "/publications/feed/")
    assert sorted(entry.title for entry in feed.entries) == ["Dated", "Undated"]
    assert all(entry.get("updated_parsed") for entry in feed.entries)
    undated = next(entry for entry in feed.entries if entry.title == "Undated")
    assert "published" not in undated  # no year, no date of publication made up


def test_a_paper_known_to_its_year_is_published_at_no_invented_day_and_updated_when_it_changed(
    client,
):
    paper = make_publication(title="Of 2026", year=2026, authors=["Hang Zhu"])
    changed = paper.history.latest().history_date
    (entry,) = read_feed(client, "/publications/feed/").entries
    assert "published" not in entry  # not 2026-01-01
    assert entry.updated_parsed[:6] == changed.utctimetuple()[:6]


def test_news_is_published_on_its_day_only_when_its_day_is_known(client):
    make_news(title="In July", date="2026-07")
    make_news(title="In 2026", date="2026")
    on_the_day = make_news(title="On the 25th", date="2026-07-25")
    entries = {entry.title: entry for entry in read_feed(client, "/news/feed/").entries}
    assert "published" not in entries["In July"]  # not 2026-07-01
    assert "published" not in entries["In 2026"]  # not 2026-01-01
    assert entries["On the 25th"].published_parsed[:3] == (2026, 7, 25)
    changed = on_the_day.history.latest().history_date
    assert entries["On the 25th"].updated_parsed[:6] == changed.utctimetuple()[:6]


def test_every_entry_of_the_news_feed_has_what_rfc_4287_requires_without_people(client):
    make_news(title="About nobody in particular")
    feed = read_feed(client, "/news/feed/")
    assert [entry.title for entry in feed.entries] == ["About nobody in particular"]
    assert feed.feed.author


def test_the_news_feed_of_a_member_without_news_is_an_empty_feed(client):
    hang = make_person(name="Hang Zhu", slug="hang-zhu")
    make_news(title="About someone else")
    feed = read_feed(client, "/news/feed/?person=hang-zhu")
    assert feed.entries == []
    assert feed.feed.title.endswith("news (Hang Zhu)")
    assert hang.news_items.count() == 0


def test_a_person_no_list_knows_is_refused_by_the_news_feed_in_plain_text(client):
    make_news(title="News")
    response = client.get("/news/feed/?person=nobody")
    assert response.status_code == 400
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response.content.decode().startswith("Person “nobody” was ignored")


def test_the_apis_news_filter_answers_an_empty_list_for_a_member_without_news(client):
    make_person(name="Hang Zhu", slug="hang-zhu")
    make_news(title="News")
    data = client.get("/api/news/?person=hang-zhu").json()
    assert (data["count"], data["results"]) == (0, [])
    refused = client.get("/api/news/?person=nobody")
    assert refused.status_code == 400
    assert refused["Content-Type"] == "application/json; charset=utf-8"
    assert "Person “nobody” was ignored" in refused.json()["detail"]


def test_the_news_page_offers_a_member_asked_for_though_not_in_the_news(client):
    make_person(name="Hang Zhu", slug="hang-zhu")
    make_news(title="News")
    page = client.get("/news/?person=hang-zhu")
    assert page.status_code == 200
    assert list(page.context["page"].object_list) == []
    assert '<option value="hang-zhu" selected>Hang Zhu</option>' in page.content.decode()
    assert NewsItem.objects.count() == 1


def schema_errors(content: bytes, tmp_path: Path) -> list[str]:
    """What jing finds wrong in a feed by RFC 4287's RELAX NG schema: one line an error."""
    document = tmp_path / "feed.xml"
    document.write_bytes(content)
    run = subprocess.run(
        ["jing", "-c", str(ATOM_SCHEMA), str(document)], capture_output=True, text=True
    )
    return [line for line in run.stdout.splitlines() if ": error: " in line]


@pytest.mark.needs("jing")
def test_jing_reports_an_entry_without_updated_and_a_year_as_published(tmp_path):
    """The schema check itself: what RFC 4287 refuses, jing reports."""
    bad = (
        b'<feed xmlns="http://www.w3.org/2005/Atom"><title>t</title><id>x</id>'
        b"<updated>2026-01-01T00:00:00Z</updated><author><name>a</name></author>"
        b"<entry><title>e</title><id>y</id><published>2026</published></entry></feed>"
    )
    assert len(schema_errors(bad, tmp_path)) == 2


@pytest.mark.needs("jing")
def test_both_feeds_are_valid_by_rfc_4287s_schema_with_undated_and_month_dated_rows(
    client, tmp_path
):
    make_publication(title="Dated", year=2024, authors=["Hang Zhu"])
    make_publication(title="Undated", year=None)
    make_news(title="In July", date="2026-07")
    make_news(title="On the 25th", date="2026-07-25")
    make_news(title="About nobody in particular", date="2026")
    for url in ["/publications/feed/", "/news/feed/", "/news/feed/?year=2026"]:
        response = client.get(url)
        assert response.status_code == 200
        assert schema_errors(response.content, tmp_path) == [], url


class SeededFeedsReadBackTests(SeededTestCase):
    def test_every_feed_the_readme_names_reads_back_valid_from_the_seed(self):
        for url in [
            "/publications/feed/",
            "/publications/feed/?author=hang-zhu",
            "/publications/feed/?type=preprint",
            "/news/feed/",
            "/news/feed/?person=hang-zhu",
        ]:
            feed = read_feed(self.client, url)
            assert all(entry.get("updated_parsed") for entry in feed.entries), url
