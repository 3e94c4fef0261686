"""A many-to-many link made or undone from the side that does not declare the field
(`paper.events.add(talk)`) is kept in the history of the side that does (the talk's versions
list its papers), as a link made from the talk's side is (base/history_records.py). It used
to fail in django-simple-history's receiver: "HistoricalPublication() got unexpected keyword
arguments"."""

import datetime

import pytest

from tests.factories import make_event, make_news, make_publication

pytestmark = pytest.mark.django_db


def linked_papers(row) -> list[str]:
    """The papers the newest version of `row` links."""
    return sorted(link.publication.title for link in row.history.first().publications.all())


def test_a_talk_linked_and_unlinked_from_its_paper_has_a_version_for_each():
    ring = make_publication(title="Ring")
    klotski = make_publication(title="Klotski")
    talk = make_event(starts_in=-datetime.timedelta(days=3), title="Ring at NSDI")
    talk.publications.add(klotski)
    versions = talk.history.count()

    ring.events.add(talk)
    assert linked_papers(talk) == ["Klotski", "Ring"]

    ring.events.remove(talk)
    assert linked_papers(talk) == ["Klotski"]
    assert talk.history.count() == versions + 2
    assert not ring.history.filter(history_type="~").exists()


def test_a_paper_whose_news_are_cleared_leaves_a_version_of_each_news_item():
    ring = make_publication(title="Ring")
    first, second = make_news(title="Ring accepted"), make_news(title="Ring wins")
    ring.news_items.add(first, second)
    assert linked_papers(first) == linked_papers(second) == ["Ring"]

    ring.news_items.clear()

    assert linked_papers(first) == linked_papers(second) == []
