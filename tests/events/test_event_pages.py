"""/events/: upcoming talks and events apart from past ones, filtered with counts, each with a
page in its own time zone and schema.org Event JSON-LD; a profile's and a group's own lists."""

import datetime
import json
import re

import html5lib
from django.test import TestCase

from events.models import Event
from people.models import ExternalPerson, Membership, ResearchGroup
from tests.cases import assert_a_draft_is_hidden_from_visitors_and_previewed_by_editors
from tests.factories import count_queries, make_event, make_person, make_publication

HOUR = datetime.timedelta(hours=1)
DAY = datetime.timedelta(days=1)


def section_titles(html: str, heading_id: str) -> list[str]:
    """The event titles listed in the <section> labelled by `heading_id`."""
    document = html5lib.parse(html, namespaceHTMLElements=False)
    section = document.find(f".//section[@aria-labelledby='{heading_id}']")
    assert section is not None, heading_id
    return [
        "".join(link.itertext()) for link in section.iterfind(".//p[@class='news-entry__title']/a")
    ]


class EventListTests(TestCase):
    @classmethod
    def setUpTestData(cls):
        cls.ada = make_person(name="Ada Lovelace", slug="ada")
        cls.group = ResearchGroup.objects.create(name="Systems", slug="systems")
        make_event(title="Later upcoming", starts_in=3 * DAY, speaker=cls.ada)
        make_event(title="Soonest upcoming", starts_in=DAY, kind=Event.Kind.SEMINAR)
        make_event(title="Under way", starts_in=-HOUR / 2, group=cls.group)
        make_event(title="Last week", starts_in=-7 * DAY, kind=Event.Kind.SEMINAR)
        make_event(title="Last month", starts_in=-30 * DAY, group=cls.group)
        make_event(title="A draft", starts_in=2 * DAY, is_published=False)

    def test_upcoming_events_come_first_soonest_first_and_past_ones_newest_first(self):
        html = self.client.get("/events/").content.decode()
        assert section_titles(html, "upcoming") == [
            "Under way",
            "Soonest upcoming",
            "Later upcoming",
        ]
        assert section_titles(html, "past") == ["Last week", "Last month"]
        assert html.index('id="upcoming"') < html.index('id="past"')

    def test_the_kind_filter_narrows_both_lists_and_its_facet_counts_each_kind(self):
        html = self.client.get("/events/?kind=seminar").content.decode()
        assert section_titles(html, "upcoming") == ["Soonest upcoming"]
        assert section_titles(html, "past") == ["Last week"]
        # Counted under the other filters, drafts left out: 3 talks, 2 seminars.
        kinds = re.findall(
            r'name="kind" value="(\w+)"[^>]*>.*?facet__count">(\d+)', html, flags=re.S
        )
        assert dict(kinds) == {"talk": "3", "seminar": "2"}

    def test_the_group_filter_keeps_the_groups_events(self):
        html = self.client.get("/events/?group=systems").content.decode()
        assert section_titles(html, "upcoming") == ["Under way"]
        assert section_titles(html, "past") == ["Last month"]

    def test_an_unknown_kind_is_ignored_with_a_notice_not_an_error(self):
        response = self.client.get("/events/?kind=party")
        assert response.status_code == 200
        assert "was ignored" in response.content.decode()

    def test_a_draft_is_hidden_from_visitors_and_previewed_by_editors(self):
        draft = Event.objects.get(title="A draft")
        assert "A draft" not in self.client.get("/events/").content.decode()
        assert_a_draft_is_hidden_from_visitors_and_previewed_by_editors(self, draft)

    def test_a_speakers_profile_lists_their_talks(self):
        html = self.client.get("/people/ada/").content.decode()
        assert "Later upcoming" in html and "Soonest upcoming" not in html
        assert "/events/calendar.ics?person=ada" in html

    def test_a_groups_page_lists_its_events_upcoming_and_past(self):
        html = self.client.get("/groups/systems/").content.decode()
        assert "Under way" in html and "Last month" in html and "Last week" not in html
        assert "/events/calendar.ics?group=systems" in html


class EventPageTests(TestCase):
    @classmethod
    def setUpTestData(cls):
        cls.paper = make_publication(title="Klotski", slug="klotski")
        guest = ExternalPerson.objects.create(name="Grace Hopper", slug="grace-hopper")
        start = datetime.datetime(2031, 7, 25, 12, 0, tzinfo=datetime.UTC)
        cls.event = Event.objects.create(
            title="Caching at scale",
            slug="caching-at-scale",
            kind=Event.Kind.SEMINAR,
            speaker=guest,
            place="Room 4.12",
            starts_at=start,
            ends_at=start + datetime.timedelta(minutes=90),
            time_zone="Europe/Paris",
            slides_url="https://example.org/slides.pdf",
        )
        cls.event.publications.add(cls.paper)

    def test_its_time_is_shown_in_the_events_own_time_zone(self):
        html = self.client.get("/events/caching-at-scale/").content.decode()
        # 12:00 UTC is 14:00 in Paris in July (CEST), whatever the site's time zone.
        assert "Fri 25 Jul 2031, 14:00" in html and "15:30" in html and "CEST" in html
        assert 'datetime="2031-07-25T14:00:00+02:00"' in html

    def test_its_json_ld_is_a_schema_org_event_with_its_time_and_speaker(self):
        html = self.client.get("/events/caching-at-scale/").content.decode()
        block = re.search(r'<script type="application/ld\+json">(.*?)</script>', html, re.S)
        data = json.loads(block.group(1))
        assert data["@type"] == "Event"
        assert data["startDate"] == "2031-07-25T14:00:00+02:00"
        assert data["endDate"] == "2031-07-25T15:30:00+02:00"
        assert data["location"] == {"@type": "Place", "name": "Room 4.12"}
        assert data["performer"]["name"] == "Grace Hopper"
        assert data["url"].endswith("/events/caching-at-scale/")

    def test_it_links_its_papers_slides_and_an_add_to_calendar_file(self):
        html = self.client.get("/events/caching-at-scale/").content.decode()
        assert "/publications/klotski/" in html
        assert "https://example.org/slides.pdf" in html
        assert 'href="/events/caching-at-scale.ics"' in html

    def test_the_sitemap_lists_the_events_page_and_the_list(self):
        xml = self.client.get("/sitemap.xml").content.decode()
        assert "/events/caching-at-scale/</loc>" in xml and "/events/</loc>" in xml


class EventQueryCountTests(TestCase):
    """The list, a profile's and a group's events read each event's speaker, profile and group
    in the same query: no query per event (an N+1 over speakers or groups)."""

    def add_events(self, count: int) -> None:
        for number in range(count):
            make_event(
                starts_in=(number - count // 2) * DAY,
                speaker=self.ada if number % 2 else self.guest,
                group=self.group,
                kind=Event.Kind.TALK if number % 3 else Event.Kind.SEMINAR,
            )

    def setUp(self):
        self.ada = make_person(name="Ada Lovelace", slug="ada")
        self.guest = ExternalPerson.objects.create(name="Grace Hopper", slug="grace-hopper")
        self.group = ResearchGroup.objects.create(name="Systems", slug="systems")
        Membership.objects.create(person=self.ada, group=self.group)

    def test_the_list_profile_group_and_calendar_run_as_many_queries_with_many_events(self):
        urls = ["/events/", "/events/?kind=talk", "/people/ada/", "/groups/systems/"]
        urls += ["/events/calendar.ics", "/events/calendar.ics?person=ada"]
        self.add_events(4)
        self.client.get("/")  # the lab's row is made on the first request
        few = {url: count_queries(self.client, url) for url in urls}
        self.add_events(30)
        many = {url: count_queries(self.client, url) for url in urls}
        assert many == few


class HeaderTests(TestCase):
    def test_the_header_offers_the_events_page_only_when_there_are_events(self):
        assert 'href="/events/"' not in self.client.get("/").content.decode()
        make_event(starts_in=DAY)
        assert 'href="/events/"' in self.client.get("/").content.decode()


class EmptyEventListTests(TestCase):
    def test_with_no_events_the_list_says_so_in_a_sentence_and_offers_no_empty_filters(self):
        make_event(title="A draft", starts_in=DAY, is_published=False)
        html = self.client.get("/events/").content.decode()
        assert "There are no talks or events yet." in html
        assert "Apply filters" not in html and '<form class="filters"' not in html
        assert "No upcoming talk or event matches." not in html

    def test_in_chinese_too(self):
        html = self.client.get("/zh-hans/events/").content.decode()
        assert "暂无报告或活动。" in html


class StoredMicrosecondsTests(TestCase):
    """A time saved through the API or the shell may carry microseconds; HTML's <time
    datetime> takes at most three digits of a fraction (the Nu checker refused six)."""

    @classmethod
    def setUpTestData(cls):
        cls.ada = make_person(name="Ada Lovelace", slug="ada")
        start = datetime.datetime(2031, 7, 25, 12, 0, 0, 123456, tzinfo=datetime.UTC)
        Event.objects.create(
            title="Caching at scale",
            slug="caching-at-scale",
            speaker=cls.ada,
            starts_at=start,
            ends_at=start + datetime.timedelta(minutes=90, microseconds=654321),
            time_zone="Europe/Paris",
        )

    def test_every_time_element_has_a_valid_datetime_on_the_list_the_page_and_the_profile(self):
        valid = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d{1,3})?)?([+-]\d\d:\d\d|Z)")
        for address in ("/events/", "/events/caching-at-scale/", "/people/ada/"):
            html = self.client.get(address).content.decode()
            values = re.findall(r'<time datetime="([^"]*)"', html)
            assert "2031-07-25T14:00:00+02:00" in values, address
            assert all(valid.fullmatch(value) for value in values), (address, values)
        page = self.client.get("/events/caching-at-scale/").content.decode()
        assert 'datetime="2031-07-25T15:30:00+02:00"' in page
