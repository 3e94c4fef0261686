"""Texts staff give in Chinese beside the original (base/translations.py): the Chinese pages
show them, the English pages and every citation the original, and an empty translation falls
back to the original, marked as English inside a Chinese page."""

import datetime
import json

import pytest
from django.utils import translation

from base.models import Lab
from news.models import NewsItem
from people.models import ResearchArea, ResearchGroup
from publications import exports
from publications.models import Publication
from tests.factories import html_of, make_cached_site, make_news, make_person, make_publication

pytestmark = pytest.mark.django_db

TITLE = "Consistent Caching for Serverless Workflows"
TITLE_ZH = "无服务器工作流的一致性缓存"


@pytest.fixture
def paper():
    member = make_person(
        name="Hang Zhu",
        slug="hang-zhu",
        bio="Hang works on **distributed systems**.",
        bio_zh_hans="朱航研究**分布式系统**。",
    )
    return make_publication(
        title=TITLE,
        title_zh_hans=TITLE_ZH,
        slug="consistent-caching",
        abstract="We cache state.",
        abstract_zh_hans="我们缓存状态。",
        authors=[member, "Bo Zhao"],
    )


def test_a_paper_page_shows_its_chinese_title_and_abstract_under_zh_hans_and_the_original_in_english(
    client, paper
):
    chinese = html_of(client, "/zh-hans/publications/consistent-caching/")
    assert f"<h1>{TITLE_ZH}</h1>" in chinese
    assert f"<title>{TITLE_ZH} · " in chinese
    assert "<p>我们缓存状态。</p>" in chinese
    assert TITLE not in chinese.split("<h1", 1)[1].split("</h1>", 1)[0]
    english = html_of(client, "/publications/consistent-caching/")
    assert f"<h1>{TITLE}</h1>" in english
    assert "<p>We cache state.</p>" in english
    assert TITLE_ZH not in english.split("<h1", 1)[1]
    # Search engines read the original as the name, the translation as an alternate name.
    for html in (chinese, english):
        assert f'"name": "{TITLE}"' in html
        assert f'"alternateName": {{"@value": "{TITLE_ZH}", "@language": "zh-Hans"}}' in html


def test_the_publication_list_and_the_profile_show_the_chinese_title_and_bio_under_zh_hans(
    client, paper
):
    listing = html_of(client, "/zh-hans/publications/")
    assert f'href="/zh-hans/publications/consistent-caching/">{TITLE_ZH}</a>' in listing
    profile = html_of(client, "/zh-hans/people/hang-zhu/")
    assert "朱航研究<strong>分布式系统</strong>。" in profile
    assert TITLE_ZH in profile
    english = html_of(client, "/people/hang-zhu/")
    assert "Hang works on <strong>distributed systems</strong>." in english
    assert TITLE_ZH not in english


def test_a_news_item_shows_its_chinese_title_and_body_under_zh_hans(client):
    make_news(
        title="Paper accepted",
        title_zh_hans="论文被录用",
        slug="accepted",
        body="Our paper was accepted.",
        body_zh_hans="我们的论文被录用了。",
    )
    item = html_of(client, "/zh-hans/news/accepted/")
    assert "<h1>论文被录用</h1>" in item and "<p>我们的论文被录用了。</p>" in item
    assert "论文被录用" in html_of(client, "/zh-hans/news/")
    english = html_of(client, "/news/accepted/")
    assert "<h1>Paper accepted</h1>" in english and "论文被录用" not in english


def test_group_area_and_lab_texts_show_in_chinese_under_zh_hans(client):
    area = ResearchArea.objects.create(
        name="Systems", name_zh_hans="系统", slug="systems", description_zh_hans="关于系统。"
    )
    group = ResearchGroup.objects.create(
        name="Networked Systems",
        name_zh_hans="网络系统组",
        slug="netsys",
        short_description="We build networks.",
        short_description_zh_hans="我们构建网络。",
    )
    group.areas.add(area)
    lab = Lab.objects.current()
    lab.tagline, lab.tagline_zh_hans = "Systems research", "系统研究"
    lab.save()
    group_page = html_of(client, "/zh-hans/groups/netsys/")
    assert "<h1>网络系统组</h1>" in group_page and "我们构建网络。" in group_page
    assert ">系统</a>" in group_page
    assert "网络系统组" in html_of(client, "/zh-hans/groups/")
    assert "<h1>系统</h1>" in html_of(client, "/zh-hans/areas/systems/")
    assert "系统研究" in html_of(client, "/zh-hans/")
    assert "系统研究" not in html_of(client, "/") and "网络系统组" not in html_of(
        client, "/groups/"
    )


def test_an_empty_translation_falls_back_to_the_original_marked_as_english(client):
    make_publication(title="Untranslated Paper", slug="untranslated", title_zh_hans="  ")
    chinese = html_of(client, "/zh-hans/publications/untranslated/")
    assert '<h1 lang="en">Untranslated Paper</h1>' in chinese
    assert '<html lang="zh-hans"' in chinese
    assert 'lang="en">Untranslated Paper</a>' in html_of(client, "/zh-hans/publications/")
    # In English the original is the page's own language: no mark.
    assert "<h1>Untranslated Paper</h1>" in html_of(client, "/publications/untranslated/")


def test_a_chinese_original_is_not_marked_as_english_on_the_chinese_page(client):
    make_publication(title="基于 GPU 的分布式缓存", slug="chinese-original")
    assert "<h1>基于 GPU 的分布式缓存</h1>" in html_of(
        client, "/zh-hans/publications/chinese-original/"
    )
    # An English bio naming a cat in Chinese (the seed's Haoran Zhang) is still English.
    make_person(name="Haoran Zhang", slug="haoran-zhang", bio="瓜皮 (➔) is my favorite cat.")
    assert '<div class="prose" lang="en"><p>瓜皮 (➔) is my favorite cat.</p>' in html_of(
        client, "/zh-hans/people/haoran-zhang/"
    )


def test_citations_write_the_original_title_whatever_the_readers_language(client, paper):
    english_bib = html_of(client, "/publications/consistent-caching.bib")
    chinese_bib = html_of(client, "/zh-hans/publications/consistent-caching.bib")
    assert chinese_bib == english_bib
    assert TITLE in chinese_bib and TITLE_ZH not in chinese_bib
    papers = Publication.objects.filter(pk=paper.pk).for_listing()
    with translation.override("zh-hans"):
        chinese_csl = exports.csl_json(papers, base_url="https://lab.example/")
        chinese_ris = exports.ris(papers, base_url="https://lab.example/")
    english_csl = exports.csl_json(papers, base_url="https://lab.example/")
    assert chinese_csl == english_csl
    assert json.loads(chinese_csl)[0]["title"] == TITLE
    assert chinese_ris == exports.ris(papers, base_url="https://lab.example/")
    assert TITLE_ZH not in chinese_ris


def test_the_chinese_title_finds_the_paper_and_the_original_still_does(client, paper):
    for address in ("/zh-hans/publications/?q=", "/publications/?q="):
        assert "consistent-caching/" in html_of(client, address + "无服务器工作流")
        assert "consistent-caching/" in html_of(client, address + "Serverless")
    # The site search finds it too, and names it in the reader's language.
    chinese = html_of(client, "/zh-hans/search/?q=无服务器工作流")
    assert 'href="/zh-hans/publications/consistent-caching/"><mark>无服务器工作流' in chinese
    english = html_of(client, "/search/?q=无服务器工作流")
    assert f'href="/publications/consistent-caching/">{TITLE}</a>' in english
    paper.refresh_from_db()
    assert paper.search_text.splitlines()[0].endswith(TITLE_ZH)
    # A translation given later is found too: the search text follows the save.
    other = make_publication(title="Later Paper", slug="later")
    other.title_zh_hans = "后来的论文"
    other.save()
    assert "later/" in html_of(client, "/publications/?q=后来的论文")


def test_the_admin_form_saves_both_languages_side_by_side_and_the_history_records_the_change(
    editor_client,
):
    form = editor_client.get("/admin/news/newsitem/add/").content.decode()
    assert "Title (Chinese)" in form and "Body (Chinese)" in form
    response = editor_client.post(
        "/admin/news/newsitem/add/",
        {
            "title": "Paper accepted",
            "title_zh_hans": "论文被录用",
            "slug": "accepted",
            "date": "2026-07",
            "kind": "news",
            "body": "Accepted.",
            "body_zh_hans": "录用了。",
            "is_published": "on",
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    item = NewsItem.objects.get(slug="accepted")
    assert (item.title, item.title_zh_hans) == ("Paper accepted", "论文被录用")
    assert item.body_html_zh_hans == "<p>录用了。</p>\n"
    item.title_zh_hans = "论文已被录用"
    item.save()
    newest, before = item.history.all()[:2]
    changes = newest.diff_against(before).changes
    assert [(c.field, c.old, c.new) for c in changes] == [
        ("title_zh_hans", "论文被录用", "论文已被录用")
    ]


def test_the_network_caption_and_summary_are_joined_by_each_languages_own_colon(client):
    make_cached_site()
    english = html_of(client, "/network/")
    chinese = html_of(client, "/zh-hans/network/")
    caption = english.split('<figcaption id="network-caption">', 1)[1].split("</figcaption>", 1)[0]
    assert caption.startswith("Co-author network: ")
    caption = chinese.split('<figcaption id="network-caption">', 1)[1].split("</figcaption>", 1)[0]
    assert caption.startswith("合作网络：") and ": " not in caption


def test_the_area_filter_names_each_area_in_the_readers_language(client, paper):
    area = ResearchArea.objects.create(name="Cloud Systems", name_zh_hans="云系统", slug="cloud")
    paper.areas.add(area)
    chinese = html_of(client, "/zh-hans/publications/")
    assert "云系统" in chinese
    english = html_of(client, "/publications/")
    assert "Cloud Systems" in english and "云系统" not in english


def test_a_groups_and_an_areas_chinese_name_shows_wherever_the_chinese_pages_link_them(client):
    """Profiles, projects, datasets and talks name a member's groups and areas: each link under
    /zh-hans/ shows the Chinese name (they showed the original, unmarked)."""
    from events.models import Event  # noqa: F401  (make_event's model)
    from outputs.models import Output
    from people.models import Membership
    from projects.models import Project
    from tests.factories import make_event

    area = ResearchArea.objects.create(name="Systems", name_zh_hans="系统领域", slug="systems")
    group = ResearchGroup.objects.create(
        name="Networked Systems", name_zh_hans="网络系统组", slug="netsys"
    )
    person = make_person(name="Hang Zhu", slug="hang-zhu")
    Membership.objects.create(group=group, person=person, role="phd-student")
    person.research_areas.add(area)
    project = Project.objects.create(title="Caching", slug="caching")
    output = Output.objects.create(title="Traces", slug="traces")
    for row in (project, output):
        row.groups.add(group)
        row.areas.add(area)
    make_event(starts_in=datetime.timedelta(days=3), slug="talk", group=group)

    for address in (
        "/zh-hans/people/hang-zhu/",
        "/zh-hans/projects/caching/",
        "/zh-hans/outputs/traces/",
        "/zh-hans/events/talk/",
        "/zh-hans/events/",
    ):
        shown = html_of(client, address)
        assert ">网络系统组</a>" in shown, address
        assert "Networked Systems</a>" not in shown, address
    for address in ("/zh-hans/people/hang-zhu/", "/zh-hans/projects/caching/"):
        assert ">系统领域</a>" in html_of(client, address), address
