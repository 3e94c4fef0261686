"""Words the code builds outside the templates follow the page's language too
(docs/decisions/languages.md): the filters' "ignored" messages and form errors, the year
chart's summary and bar names, the co-author network's summary, citation counts, and the
choice labels (publication types, roles, news kinds)."""

import datetime

import pytest

from base.models import Lab
from people.models import Membership, ResearchGroup
from publications.models import CitationCount
from tests.factories import html_of, make_news, make_person, make_publication

pytestmark = pytest.mark.django_db


@pytest.fixture
def site():
    hang = make_person(name="Hang Zhu", slug="hang-zhu")
    bo = make_person(name="Bo Zhao", slug="bo-zhao")
    for year in (2021, 2023):
        make_publication(
            title=f"Klotski {year}",
            year=year,
            type="journal-article",
            authors=[hang, bo],
        )
    return hang


def test_a_filter_value_the_list_ignored_is_reported_in_the_pages_language(client, site):
    english = html_of(client, "/publications/?year_min=soon")
    chinese = html_of(client, "/zh-hans/publications/?year_min=soon")
    assert "From year “soon” was ignored: Enter a whole number." in english
    assert "起始年份 “soon” 已忽略：输入整数。" in chinese
    assert "was ignored" not in chinese


def test_a_filter_given_two_values_is_refused_in_the_pages_language(client, site):
    chinese = html_of(client, "/zh-hans/people/?q=" + "+".join(["word"] * 13))
    assert "最多只能用 12 个词搜索。" in chinese
    chinese = html_of(client, "/zh-hans/publications/?year_min=2020&year_max=2022&year_max=2023")
    assert "此项只接受一个值，却收到了多个。" in chinese
    assert "It takes one value" not in chinese


def test_the_year_charts_summary_and_bars_are_in_the_pages_language(client, site):
    english = html_of(client, "/publications/")
    chinese = html_of(client, "/zh-hans/publications/")
    assert "2021–2023, the most in 2023 (1)." in english
    assert "2023: 1 publication" in english
    assert "2021–2023 年，2023 年最多（1 篇）。" in chinese
    assert "2023 年：1 篇论文" in chinese
    assert "publication<" not in chinese and ": 1 publication" not in chinese


def test_the_coauthor_networks_summary_is_in_the_pages_language(client, site):
    english = html_of(client, "/network/")
    chinese = html_of(client, "/zh-hans/network/")
    assert "2 people and 1 pair who wrote papers together." in english
    assert "2 位成员，其中 1 对合写过论文。" in chinese
    assert "who wrote papers together" not in chinese
    # The drawing is kept once for both languages; the words are written when it is shown.
    assert "2 people and 1 pair" in html_of(client, "/network/")


def test_citation_counts_are_worded_and_dated_in_the_pages_language(client, site):
    lab = Lab.objects.current()
    lab.show_citation_counts = True
    lab.save()
    paper = make_publication(title="Cited", year=2024, doi="10.1145/3603269", authors=[site])
    for source, count in (("openalex", 1234), ("crossref", 17)):
        CitationCount.objects.create(
            publication=paper, source=source, count=count, counted_on=datetime.date(2026, 12, 3)
        )
    url = paper.get_absolute_url()
    assert "1,234 citations (OpenAlex, 3 Dec 2026); 17 citations (Crossref, 3 Dec 2026)" in html_of(
        client, url
    )
    chinese = html_of(client, f"/zh-hans{url}")
    assert (
        "被引 1234 次（OpenAlex，2026年12月3日）；被引 17 次（Crossref，2026年12月3日）" in chinese
    )
    # The profile's total is kept once for both languages.
    assert "1,234 citations of these papers in all (OpenAlex, 3 Dec 2026)." in html_of(
        client, "/people/hang-zhu/"
    )
    chinese = html_of(client, "/zh-hans/people/hang-zhu/")
    assert "这些论文共被引 1234 次（OpenAlex，2026年12月3日）。" in chinese
    assert "citations" not in chinese


def test_choice_labels_are_in_the_pages_language(client, site):
    group = ResearchGroup.objects.create(name="Networks", slug="networks")
    Membership.objects.create(group=group, person=site, role=Membership.Role.PHD_STUDENT)
    make_news(title="Klotski at NSDI", date="2024-03-05", body="The talk.", kind="blog-post")
    chinese = html_of(client, "/zh-hans/publications/") + html_of(
        client, "/zh-hans/groups/networks/"
    )
    chinese += html_of(client, "/zh-hans/news/")
    assert "期刊论文" in chinese
    assert "博士研究生" in chinese
    assert "博客文章" in chinese
    for english in ("Journal article", "PhD student", "Blog post"):
        assert english not in chinese
