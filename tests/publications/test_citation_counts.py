"""Citation counts as dated snapshots: asked of OpenAlex and Crossref (recorded responses on
127.0.0.1), stored with their source and day, shown on the paper's page and the profile only
when the lab's settings turn them on, and never shown when no service counted the paper."""

import datetime

import pytest
from django.core.management import call_command

from base.models import Lab
from publications.models import CitationCount
from publications.suggestions.citations import refresh_citation_counts
from tests.factories import count_queries, make_person, make_publication
from tests.worker import run_worker

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 12, 3)


@pytest.fixture
def papers():
    hang = make_person(name="Hang Zhu")
    optical = make_publication(
        title="Scheduling Optical Circuits",
        year=2024,
        doi="10.1145/3603269.3604826",
        authors=[hang],
    )
    networks = make_publication(
        title="Networks Are Computers", year=2023, doi="10.1145/3611111", authors=[hang]
    )
    undated = make_publication(title="No DOI Here", year=2022, authors=[hang])
    return hang, optical, networks, undated


def show_counts(on: bool = True) -> None:
    lab = Lab.objects.current()
    lab.show_citation_counts = on
    lab.save()


def shows_counts(response) -> bool:
    return 'class="citation-counts"' in response.content.decode()


def stored() -> set[tuple[str, str, int, datetime.date]]:
    return {
        (count.publication.title, count.source, count.count, count.counted_on)
        for count in CitationCount.objects.select_related("publication")
    }


def test_a_refresh_stores_each_services_count_with_its_day_and_invents_none(services, papers):
    refreshed = refresh_citation_counts(today=DAY)
    assert refreshed.stored == 4 and refreshed.problems == []
    assert stored() == {
        ("Scheduling Optical Circuits", "openalex", 42, DAY),
        ("Scheduling Optical Circuits", "crossref", 17, DAY),
        ("Networks Are Computers", "openalex", 7, DAY),
        ("Networks Are Computers", "crossref", 5, DAY),
    }
    # The same day again replaces that day's snapshot; the next day adds one.
    refresh_citation_counts(today=DAY)
    refresh_citation_counts(today=DAY + datetime.timedelta(days=1))
    assert CitationCount.objects.count() == 8


def test_the_command_queues_the_refresh_for_the_worker(services, papers):
    call_command("refresh_citation_counts")
    assert not CitationCount.objects.exists()
    run_worker()
    assert CitationCount.objects.count() == 4


def test_a_garbled_or_missing_answer_stores_nothing_and_says_why(services, papers):
    services.answers["/openalex/works"] = b"<html>Too Many Requests</html>"
    services.answers["/crossref/works/10.1145/3611111"] = (
        b'{"message": {"is-referenced-by-count": -3}}'
    )
    refreshed = refresh_citation_counts(today=DAY)
    # Crossref's count of the first paper only: garbage, a negative count, nothing invented.
    assert stored() == {("Scheduling Optical Circuits", "crossref", 17, DAY)}
    assert refreshed.problems == [
        "OpenAlex: OpenAlex's answer is not valid JSON (Expecting value: line 1 column 1 (char 0))."
    ]


def test_a_site_that_does_not_fetch_stores_nothing(settings, papers):
    settings.IDENTIFIER_FETCHING = False
    refreshed = refresh_citation_counts(today=DAY)
    assert refreshed.stored == 0 and not CitationCount.objects.exists()
    assert "IDENTIFIER_FETCHING is off" in refreshed.summary()


def test_counts_show_on_the_paper_and_profile_only_when_staff_turn_them_on(
    client, services, papers
):
    hang, optical, _, undated = papers
    refresh_citation_counts(today=DAY)
    assert not shows_counts(client.get(optical.get_absolute_url()))
    assert not shows_counts(client.get(hang.get_absolute_url()))

    show_counts()
    page = client.get(optical.get_absolute_url()).content.decode()
    assert "42 citations (OpenAlex, 3 Dec 2026); 17 citations (Crossref, 3 Dec 2026)" in page
    # OpenAlex's count of each paper where it has one: 42 + 7.
    profile = client.get(hang.get_absolute_url()).content.decode()
    assert "49 citations of these papers in all (OpenAlex, 3 Dec 2026)." in profile
    # Never counted: nothing said, not "0 citations".
    assert not shows_counts(client.get(undated.get_absolute_url()))


def test_the_newest_snapshot_is_the_one_shown(client, papers):
    _, optical, _, _ = papers
    show_counts()
    for days, count in ((0, 3), (30, 1), (10, 2)):
        CitationCount.objects.create(
            publication=optical,
            source="openalex",
            count=count,
            counted_on=DAY + datetime.timedelta(days=days),
        )
    assert (
        "1 citation (OpenAlex, 2 Jan 2027)"
        in client.get(optical.get_absolute_url()).content.decode()
    )


def test_a_papers_page_and_a_profile_read_counts_in_one_query_however_many(client):
    """One query for the paper's latest counts, one for the profile's sum: not one per
    snapshot, per source or per paper."""
    few, many = make_person(name="Few Counts"), make_person(name="Many Counts")
    one = make_publication(title="Counted Once", doi="10.1000/one", authors=[few])
    CitationCount.objects.create(publication=one, source="openalex", count=1, counted_on=DAY)
    often = [
        make_publication(title=f"Counted Often {number}", doi=f"10.1000/{number}", authors=[many])
        for number in range(6)
    ]
    for paper in often:
        for days in range(10):
            for source in ("openalex", "crossref"):
                CitationCount.objects.create(
                    publication=paper,
                    source=source,
                    count=days,
                    counted_on=DAY - datetime.timedelta(days=days),
                )
    off = count_queries(client, often[1].get_absolute_url())
    show_counts()
    assert count_queries(client, often[0].get_absolute_url()) == off + 1
    assert count_queries(client, few.get_absolute_url()) == count_queries(
        client, many.get_absolute_url()
    )
