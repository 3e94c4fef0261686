"""A member's bio, a paper's abstract or a news story cannot take the site down (issue 22).

Markdown is rendered once, when the text is saved (base/markdown.py): text too long or
nested too deep to render in bounded time is refused at save with what to change, and every
page, feed and API answer shows the stored HTML without rendering anything.
"""

import json
import time
from unittest import mock

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.db import connection, models
from django.test.utils import isolate_apps
from django.urls import reverse
from markdown_it import MarkdownIt

from base.checks import every_markdown_field_is_rendered_at_save
from base.markdown import (
    MAX_LENGTH,
    MarkdownField,
    RenderedMarkdownField,
    companion_problems,
    fill_rendered_markdown,
)
from base.models import Lab
from news.models import NewsItem
from people.models import Person
from publications.models import Publication
from tests.admin_forms import post_person, publication_form
from tests.factories import make_news, make_person, make_publication

# The issue's own examples.
LINK_BRACKET_BOMB = "[" * 10000 + "x" + "](" * 1000
LIST_500_DEEP = "\n".join("    " * depth + "- item" for depth in range(500))
QUOTES_5000_DEEP = ">" * 5000 + " x"
EMPHASIS_RUN = "*a" * 20000
UNDERSCORE_RUN = "_" * 50000
REFERENCE_FLOOD = "\n".join(f"[r{number}]: http://x/{number}" for number in range(20000))
# Short enough to be kept, and each took Python-Markdown seconds a page view (16 s and 5 s): they
# must render once, at save, and cost page views nothing.
KEPT_BOMBS = {
    "link brackets": LINK_BRACKET_BOMB,
    "unclosed links": "[a](" * (MAX_LENGTH // 4),
}
# Processor time this test process spends on the view (`time.process_time`: other processes
# on a busy machine do not inflate it); before, the link-bracket bio took 16 s and more a view.
PAGE_BOUND_SECONDS = 1.0


def timed_get(client, url: str):
    start = time.process_time()
    response = client.get(url)
    return response, time.process_time() - start


def assert_fast_and_whole(client, urls) -> None:
    """Each of `urls` answers 200 within the bound. The rows were saved after any earlier fetch,
    so no page comes from the page cache."""
    for url in urls:
        response, seconds = timed_get(client, url)
        assert response.status_code == 200, url
        assert seconds < PAGE_BOUND_SECONDS, f"{url} took {seconds:.2f} s"


def warm_up(client, urls) -> None:
    """The first fetch of a page compiles its templates: not what is measured."""
    for url in urls:
        assert client.get(url).status_code == 200, url


@pytest.fixture
def no_markdown_rendering():
    """Any Markdown rendering or sanitizing during the block fails the test."""

    def refuse(*args, **kwargs):
        raise AssertionError("a page view rendered Markdown")

    with (
        mock.patch.object(MarkdownIt, "render", refuse),
        mock.patch.object(MarkdownIt, "parse", refuse),
        mock.patch("nh3.clean", refuse),
    ):
        yield


# Refused at save, with what to change ---------------------------------------------------------


@pytest.mark.parametrize(
    ("bio", "message"),
    [
        (LIST_500_DEEP, "This text is 502,499 characters long; it may be at most 20,000."),
        (EMPHASIS_RUN, "This text is 40,000 characters long; it may be at most 20,000."),
        (UNDERSCORE_RUN, "This text is 50,000 characters long; it may be at most 20,000."),
        (REFERENCE_FLOOD, "This text is 477,779 characters long; it may be at most 20,000."),
        (QUOTES_5000_DEEP, "Lists and quotes may nest at most 20 deep; this text nests at least"),
        ("- " * 500 + "x", "Lists and quotes may nest at most 20 deep; this text nests at least"),
        (
            "\n".join("  " * depth + "- item" for depth in range(22)),
            "Lists and quotes may nest at most 20 deep; this text nests 22 deep.",
        ),
    ],
    ids=["list-500-deep", "emphasis-run", "underscores", "references", "quotes", "dashes", "22"],
)
def test_a_bio_that_cannot_render_in_bounded_time_is_refused_in_the_admin(
    editor_client, bio, message
):
    person = make_person(slug="ada", bio="Before.")
    response = post_person(editor_client, person, bio=bio)
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert any(error.startswith(message) for error in errors["bio"]), errors
    assert Person.objects.get(pk=person.pk).bio == "Before."


def test_an_abstract_nested_too_deep_is_refused_in_the_admin(editor_client):
    publication = make_publication(abstract="Before.")
    response = editor_client.post(
        reverse("admin:publications_publication_change", args=[publication.pk]),
        publication_form(publication, abstract=QUOTES_5000_DEEP),
    )
    assert response.status_code == 200
    assert "Lists and quotes may nest at most 20 deep" in str(
        response.context["adminform"].form.errors["abstract"]
    )
    assert Publication.objects.get(pk=publication.pk).abstract == "Before."


@pytest.mark.django_db
@pytest.mark.parametrize("text", [LIST_500_DEEP, QUOTES_5000_DEEP], ids=["list", "quotes"])
def test_every_markdown_field_refuses_pathological_text_on_any_save(text):
    """Not only the admin: a save from code, an import or a fixture passes the same check."""
    rows = [
        (make_person(), "bio"),
        (make_person(), "short_bio"),
        (make_publication(), "abstract"),
        (make_news(), "body"),
        (Lab.objects.current(), "about"),
    ]
    for row, field in rows:
        setattr(row, field, text)
        with pytest.raises(ValidationError) as refusal:
            row.save()
        assert field in refusal.value.message_dict


@pytest.mark.django_db
def test_text_nested_to_the_limit_is_kept_and_rendered_whole():
    text = "\n".join("  " * depth + f"- level {depth + 1}" for depth in range(20))
    person = make_person(bio=text)
    assert person.bio_html.count("<ul>") == 20
    assert "level 20" in person.bio_html


# Kept, and every page showing it answers at once -----------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("bomb", list(KEPT_BOMBS.values()), ids=list(KEPT_BOMBS))
def test_a_members_worst_bio_keeps_their_profile_fast(client, bomb):
    person = make_person(slug="ada", bio="An ordinary bio.")
    urls = [person.get_absolute_url(), "/api/people/ada/", "/people/"]
    warm_up(client, urls)
    person.bio = bomb
    person.save()
    assert_fast_and_whole(client, urls)


@pytest.mark.django_db
@pytest.mark.parametrize("bomb", list(KEPT_BOMBS.values()), ids=list(KEPT_BOMBS))
def test_a_worst_abstract_keeps_every_page_listing_the_paper_fast(client, bomb):
    ada, grace = make_person(slug="ada"), make_person(slug="grace")
    publication = make_publication(authors=[ada, grace], abstract="Ordinary.", is_featured=True)
    urls = [
        "/",
        "/publications/",
        publication.get_absolute_url(),
        ada.get_absolute_url(),
        grace.get_absolute_url(),
        f"/api/publications/{publication.slug}/",
        "/publications/feed/",
        "/search/?q=Paper",
    ]
    warm_up(client, urls)
    publication.abstract = bomb
    publication.save()
    assert_fast_and_whole(client, urls)


@pytest.mark.django_db
def test_a_worst_news_body_keeps_its_page_feed_and_api_fast(client):
    item = make_news(slug="bomb", body="Ordinary.")
    urls = [item.get_absolute_url(), "/news/", "/news/feed/", "/api/news/bomb/"]
    warm_up(client, urls)
    item.body = LINK_BRACKET_BOMB
    item.save()
    assert_fast_and_whole(client, urls)


# Page views never render ------------------------------------------------------------------------


@pytest.fixture
def every_markdown_page(db):
    """One row of each Markdown field, with the pages, feeds and API answers that show it."""
    ada = make_person(slug="ada", bio="**Ada's** bio")
    grace = make_person(slug="grace", short_bio="*Grace's* short bio")
    publication = make_publication(authors=[ada], abstract="An *abstract*", is_featured=True)
    item = make_news(slug="story", body="A *story*")
    lab = Lab.objects.current()
    lab.about = "The *lab*"
    lab.save()
    group = _group(description="A *group*")
    area = _area(description="An *area*")
    return {
        ada.get_absolute_url(): "<strong>Ada's</strong> bio",
        grace.get_absolute_url(): "<em>Grace's</em> short bio",
        publication.get_absolute_url(): "An <em>abstract</em>",
        "/publications/": "An <em>abstract</em>",
        item.get_absolute_url(): "A <em>story</em>",
        "/news/feed/": "A &lt;em&gt;story&lt;/em&gt;",
        "/api/news/story/": "A <em>story</em>",
        "/": "The <em>lab</em>",
        group.get_absolute_url(): "A <em>group</em>",
        area.get_absolute_url(): "An <em>area</em>",
    }


def _group(**fields):
    from people.models import ResearchGroup

    return ResearchGroup.objects.create(name="Systems", slug="systems", **fields)


def _area(**fields):
    from people.models import ResearchArea

    return ResearchArea.objects.create(name="Networks", slug="networks", **fields)


def test_every_page_shows_markdown_rendered_at_save_without_rendering_it(
    client, every_markdown_page, no_markdown_rendering
):
    for url, html in every_markdown_page.items():
        response = client.get(url)
        assert response.status_code == 200, url
        assert html in response.content.decode(), url


# Every way in stores the HTML -------------------------------------------------------------------


@pytest.mark.django_db
def test_every_way_of_writing_a_row_stores_its_rendered_markdown(tmp_path):
    created = Publication.objects.bulk_create(
        [Publication(title="Bulk", slug="bulk", year=2024, abstract="*bulk*")]
    )
    assert "<em>bulk</em>" in Publication.objects.get(pk=created[0].pk).abstract_html

    person = make_person(slug="ada", bio="*first*")
    Person.objects.filter(pk=person.pk).update(bio="*updated*")
    assert "<em>updated</em>" in Person.objects.get(pk=person.pk).bio_html

    person.bio = "*update_fields*"
    person.save(update_fields=["bio"])
    assert "<em>update_fields</em>" in Person.objects.get(pk=person.pk).bio_html

    person.bio = "*bulk_update*"
    Person.objects.bulk_update([person], ["bio"])
    assert "<em>bulk_update</em>" in Person.objects.get(pk=person.pk).bio_html

    fixture = tmp_path / "people.json"
    row = {"model": "people.person", "pk": person.pk, "fields": {"name": "Ada", "slug": "ada"}}
    row["fields"]["bio"] = "*loaded*"
    fixture.write_text(json.dumps([row]))
    call_command("loaddata", str(fixture), verbosity=0)
    assert "<em>loaded</em>" in Person.objects.get(pk=person.pk).bio_html


@pytest.mark.django_db
def test_rows_stored_before_get_their_html_from_the_data_migration():
    person = make_person(bio="*stored before*")
    with connection.cursor() as cursor:
        # The profile's key is its researcher link (people 0018), not a column named id.
        cursor.execute(
            f"UPDATE people_person SET bio_html = '' WHERE {Person._meta.pk.column} = %s",
            [person.pk],
        )
    fill_rendered_markdown(Person)
    assert "<em>stored before</em>" in Person.objects.get(pk=person.pk).bio_html


@pytest.mark.django_db
def test_news_kept_as_stored_html_is_sanitized():
    item = make_news(body='**ok** <script>alert(1)</script><a href="javascript:x">x</a>')
    stored = NewsItem.objects.get(pk=item.pk).body_html
    assert "<strong>ok</strong>" in stored
    assert "<script" not in stored and "javascript:" not in stored


@pytest.mark.django_db
def test_the_bibtex_import_names_an_abstract_nested_too_deep_as_the_entrys_problem():
    from publications.bibtex import parse_bibtex, review_bibliography

    abstract = "> " * 30 + "x"
    text = f"@article{{deep, title={{Deep}}, year=2020, abstract={{{abstract}}}}}\n"
    review = review_bibliography(bibliography=parse_bibtex(text))
    assert not review.can_import
    assert review.all_problems == [
        "Line 1, entry “deep”: abstract: Lists and quotes may nest at most 20 deep; this text "
        "nests 30 deep. Indent the inner lists less, or use fewer “>” at the start of a line."
    ]


@isolate_apps("base")
def test_a_markdown_field_without_its_rendered_companion_fails_the_system_check():
    class Note(models.Model):
        text = MarkdownField(blank=True)
        summary_html = RenderedMarkdownField(source="summary")

        class Meta:
            app_label = "directory"

        def __str__(self) -> str:
            return self.text

    assert companion_problems(Note) == [
        "directory.Note.text is Markdown with no RenderedMarkdownField(source='text') beside it.",
        "directory.Note.summary_html renders 'summary', which is not a MarkdownField.",
        "directory.Note's manager is not a RenderedMarkdownQuerySet: its update() would leave the "
        "rendered Markdown stale.",
    ]


def test_every_markdown_field_of_the_site_passes_the_system_check():
    assert every_markdown_field_is_rendered_at_save() == []
