"""Markdown that staff type goes out as plain text wherever it is read as text: the exports'
abstracts (RIS, CSL-JSON), the paper's JSON-LD, and the meta descriptions of news and profiles."""

import json

import pytest
import rispy

from base.markdown import plain_text
from publications.exports import csl_json, ris
from publications.models import Publication
from tests.factories import make_news, make_person, make_publication
from tests.page_head import PageHead

MARKDOWN = "We make **fast** [caches](https://example.org) & *more*.\n\n- one\n- two"
PLAIN = "We make fast caches & more. one two"


def test_rendered_markdown_reads_as_one_line_of_plain_text():
    assert plain_text("<p>One &amp; <em>two</em>.</p><p>Three&lt;4</p>") == "One & two. Three<4"


@pytest.mark.django_db
def test_abstracts_go_out_as_plain_text_in_ris_csl_json_and_json_ld(client):
    paper = make_publication(abstract=MARKDOWN, authors=["Hang Zhu"])
    papers = Publication.objects.for_export().filter(pk=paper.pk)
    assert rispy.loads(ris(papers, base_url="http://x"))[0]["abstract"] == PLAIN
    assert json.loads(csl_json(papers, base_url="http://x"))[0]["abstract"] == PLAIN
    head = PageHead(client.get(paper.get_absolute_url()).content.decode())
    assert [data.get("abstract") for data in head.json_ld] == [PLAIN]


@pytest.mark.django_db
def test_news_and_profile_descriptions_hold_no_markdown_marks(client):
    item = make_news(body=MARKDOWN)
    person = make_person(short_bio=MARKDOWN)
    for url in (item.get_absolute_url(), person.get_absolute_url()):
        head = PageHead(client.get(url).content.decode())
        assert head.named("og:description")[0].startswith(PLAIN[:30])
