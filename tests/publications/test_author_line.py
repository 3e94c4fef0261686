"""A list entry's author line: the first ten names, every member and equal contributor after
them, and "+N more" for the rest (issue 26)."""

import re

import pytest

from publications.models import Authorship, Publication
from publications.templatetags.publications import short_author_list
from tests.factories import make_person, make_publication

pytestmark = pytest.mark.django_db


def listed(publication: Publication) -> Publication:
    return Publication.objects.for_listing().get(pk=publication.pk)


def shown_names(html: str) -> str:
    short = re.search(r'<span class="authors__short">(.*?)</span> <details', html).group(1)
    return re.sub(r"<[^>]+>", "", short)


def test_a_forty_author_line_names_ten_then_the_member_at_thirty_and_counts_the_rest():
    member = make_person(name="Hang Zhu", is_published=True)
    authors = [
        member if position == 30 else f"Outside Author{position}" for position in range(1, 41)
    ]
    paper = make_publication(authors=authors)
    html = short_author_list(listed(paper))
    assert shown_names(html) == ", ".join(
        [f"Outside Author{position}" for position in range(1, 11)] + ["…", "Hang Zhu", "…"]
    )
    assert "+29 more" in html
    assert html.count("Outside Author40") == 1  # in the whole line, opened by "+29 more"


def test_an_equal_contributor_far_down_the_line_is_kept_with_its_mark():
    paper = make_publication(authors=[f"Author{position}" for position in range(1, 21)])
    Authorship.objects.filter(publication=paper, position=15).update(equal_contribution=True)
    assert shown_names(short_author_list(listed(paper))).endswith("Author10, …, Author15*, …")


def test_a_line_at_most_two_names_longer_than_ten_is_shown_whole():
    paper = make_publication(authors=[f"Author{position}" for position in range(1, 13)])
    html = short_author_list(listed(paper))
    assert "details" not in html and "Author12" in html
