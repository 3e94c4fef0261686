"""A paper's page lists the talks that present it (Event.publications, the other direction), in
its kept parts: a talk saved, linked or unlinked shows on the paper's next request, and the
page reads the talks in one query however many there are.

The kept-parts tests commit for real (transaction=True): the change stamp moves when a
transaction commits, as on a live site. The page cache is off so that every request renders
its page, and only the kept parts are reused."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from base.models import Lab
from events.models import Event
from people.models import ExternalPerson
from tests.events.test_event_pages import section_titles
from tests.factories import count_queries, make_event, make_person, make_publication

DAY = datetime.timedelta(days=1)


@pytest.fixture
def paper(db):
    Lab.objects.current()
    ada = make_person(name="Ada Lovelace", slug="ada")
    return make_publication(title="Klotski", slug="klotski", authors=[ada])


def talk(paper, **fields) -> Event:
    event = make_event(**{"starts_in": -DAY, **fields})
    event.publications.add(paper)
    return event


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("no_page_cache")
class TestKeptParts:
    def test_a_talk_saved_linked_or_unlinked_shows_on_the_papers_next_request(self, client, paper):
        url = paper.get_absolute_url()
        assert 'id="talks"' not in client.get(url).text
        with CaptureQueriesContext(connection) as again:
            client.get(url)
        assert not [q for q in again if "publications_authorship" in q["sql"]]  # kept parts

        event = talk(paper, title="Klotski at NSDI")
        assert section_titles(client.get(url).text, "talks") == ["Klotski at NSDI"]

        event.title = "Klotski at SIGCOMM"
        event.save()
        assert section_titles(client.get(url).text, "talks") == ["Klotski at SIGCOMM"]

        Event.objects.filter(pk=event.pk).update(is_published=False)  # a bulk write too
        assert 'id="talks"' not in client.get(url).text

        Event.objects.filter(pk=event.pk).update(is_published=True)
        assert 'id="talks"' in client.get(url).text
        event.publications.remove(paper)
        assert 'id="talks"' not in client.get(url).text


def test_the_talks_section_lists_the_papers_published_talks_newest_first(client, paper):
    guest = ExternalPerson.objects.create(name="Grace Hopper", slug="grace-hopper")
    talk(paper, title="Older talk", starts_in=-30 * DAY, speaker=guest)
    talk(paper, title="Upcoming talk", starts_in=3 * DAY)
    talk(paper, title="A draft talk", is_published=False)
    make_event(title="Another paper's talk", starts_in=-DAY)
    html = client.get(paper.get_absolute_url()).text
    assert section_titles(html, "talks") == ["Upcoming talk", "Older talk"]
    assert "<bdi>Grace Hopper</bdi>" in html


def test_the_paper_page_runs_as_many_queries_with_many_talks(client, paper, settings):
    """Each talk's speaker, profile and group are read with the talks: no query per talk."""
    settings.SITE_CACHE = False
    url = paper.get_absolute_url()
    speaker = make_person(name="Grace Hopper", slug="grace")
    talk(paper, speaker=speaker)
    few = count_queries(client, url)
    for number in range(8):
        talk(paper, starts_in=-number * DAY, speaker=speaker if number % 2 else None)
    assert count_queries(client, url) == few
    assert len(section_titles(client.get(url).text, "talks")) == 9
