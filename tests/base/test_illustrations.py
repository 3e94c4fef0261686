"""Pictures of news items, papers (teasers) and research groups: checked at upload, stored
re-encoded with renditions made once, described for screen readers, and their files removed
when cleared or replaced. Posted through the admin as staff, and as a member for a paper."""

import io

import pytest
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from PIL import Image

from base.renditions import DENSITIES, RENDITION_FORMATS
from people.models import ResearchGroup
from tests.admin_pages import change_form_data
from tests.factories import (
    count_queries,
    make_news,
    make_person,
    make_publication,
    make_staff_login,
)

pytestmark = pytest.mark.django_db


def png(width=600, height=400, colour="teal") -> SimpleUploadedFile:
    image = Image.new("RGB", (width, height), colour)
    image.paste("orange", (0, 0, width // 3, height))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return SimpleUploadedFile("holiday.png", buffer.getvalue(), content_type="image/png")


@pytest.fixture
def editor(client):
    client.force_login(make_staff_login("edith", role="Editors"))
    return client


@pytest.fixture
def visitor():
    return Client()


def change_url(row) -> str:
    meta = row._meta
    return reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[row.pk])


def post_change(client, row, **fields):
    """The row's change page posted back as shown, with `fields` changed."""
    data = change_form_data(client.get(change_url(row)))
    for name in [name for name in data if name.endswith("-TOTAL_FORMS")]:
        # Only the rows shown filled in: no blank extra row.
        data[name] = data[name.replace("TOTAL", "INITIAL")]
    data.update(fields)
    return client.post(change_url(row), data)


def field_errors(response, name: str) -> list[str]:
    assert response.status_code == 200, "the form was expected to be refused"
    return list(response.context["adminform"].form.errors.get(name, []))


def stored_files(row) -> list[str]:
    names = [row.image.name]
    for formats in row.image_renditions.values():
        for stored in formats.values():
            names.extend(stored)
    return names


def make_group(**fields) -> ResearchGroup:
    return ResearchGroup.objects.create(name="Networked Systems", slug="networked", **fields)


ROWS = {
    "news item": lambda: make_news(body="A story."),
    "paper": make_publication,
    "group": make_group,
}


@pytest.mark.parametrize("kind", ROWS)
def test_an_image_is_stored_with_its_renditions_at_three_densities_in_each_format(editor, kind):
    row = ROWS[kind]()
    response = post_change(editor, row, image=png(), image_alt="The lab at the river")
    assert response.status_code == 302, response.context and response.context["errors"]
    row.refresh_from_db()
    assert row.image.name.endswith(".jpg") and "holiday" not in row.image.name
    assert set(row.image_renditions) == set(type(row).image_shapes)
    for use, shape in type(row).image_shapes.items():
        assert set(row.image_renditions[use]) == {extension for _, extension in RENDITION_FORMATS}
        for extension, names in row.image_renditions[use].items():
            assert len(names) == len(DENSITIES)
            for name, density in zip(names, DENSITIES, strict=True):
                assert name.endswith(f".{extension}")
                with default_storage.open(name) as stored, Image.open(stored) as image:
                    assert image.size == (shape.width * density, shape.height * density)


@pytest.mark.parametrize("kind", ROWS)
def test_an_image_without_a_description_is_refused_on_the_description_field(editor, kind):
    row = ROWS[kind]()
    response = post_change(editor, row, image=png(), image_alt="")
    assert field_errors(response, "image_alt") == [
        "Describe the image for people who cannot see it."
    ]
    row.refresh_from_db()
    assert not row.image


def test_a_file_that_is_not_an_image_is_refused_with_a_message_on_the_field(editor):
    item = make_news()
    upload = SimpleUploadedFile("notes.gif", b"GIF89a" + b"\0" * 64, content_type="image/gif")
    response = post_change(editor, item, image=upload, image_alt="Notes")
    assert field_errors(response, "image") == [
        "This file is not a JPEG, PNG or WebP image. Export the picture as one and upload it."
    ]


def test_an_image_over_the_size_limit_is_refused_with_both_sizes(editor, settings):
    settings.PHOTO_MAX_BYTES = 1024
    item = make_news()
    response = post_change(editor, item, image=png(), image_alt="A river")
    [message] = field_errors(response, "image")
    assert message.startswith("This file is ") and message.endswith(
        "a picture can be at most 1.0\xa0KB."
    )


def test_an_image_with_too_many_pixels_is_refused(editor, settings):
    settings.PHOTO_MAX_PIXELS = 10_000
    item = make_news()
    response = post_change(editor, item, image=png(), image_alt="A river")
    assert field_errors(response, "image") == [
        "This image is 600 × 400 pixels; a picture can have at most 10,000 pixels. Make it "
        "smaller and upload it again."
    ]


@pytest.fixture
def post_committed(editor, django_capture_on_commit_callbacks):
    """post_change by the editor with what it leaves for the commit (deleting the files an
    image no longer uses) done, and the row read again."""

    def post(row, **fields):
        with django_capture_on_commit_callbacks(execute=True):
            response = post_change(editor, row, **fields)
        row.refresh_from_db()
        return response

    return post


def test_replacing_an_image_deletes_the_files_of_the_old_one(post_committed):
    item = make_news()
    post_committed(item, image=png(), image_alt="A river")
    old = stored_files(item)
    assert all(default_storage.exists(name) for name in old)
    post_committed(item, image=png(colour="navy"), image_alt="A river at night")
    assert not any(default_storage.exists(name) for name in old)
    assert all(default_storage.exists(name) for name in stored_files(item))


def test_clearing_an_image_deletes_its_files_and_empties_its_renditions(post_committed):
    group = make_group()
    post_committed(group, image=png(), image_alt="The group")
    files = stored_files(group)
    response = post_committed(group, **{"image-clear": "on", "image_alt": ""})
    assert response.status_code == 302, response.context and response.context["errors"]
    assert not group.image and group.image_renditions == {}
    assert not any(default_storage.exists(name) for name in files)


def test_a_member_sets_the_teaser_of_their_own_paper(client):
    login = make_staff_login("ada", role="Member logins")
    ada = make_person(name="Ada Lovelace", slug="ada", user=login)
    paper = make_publication(authors=[ada])
    client.force_login(login)
    response = post_change(client, paper, image=png(), image_alt="The prototype on a bench")
    assert response.status_code == 302, response.context and response.context["errors"]
    paper.refresh_from_db()
    assert paper.image_alt == "The prototype on a bench"
    assert set(paper.image_renditions) == {"thumbnail", "page"}


def with_image(row, client_editor):
    response = post_change(client_editor, row, image=png(), image_alt="What it shows")
    assert response.status_code == 302
    row.refresh_from_db()
    return row


def test_the_news_list_and_page_show_the_image_with_a_source_per_density(editor, visitor):
    item = with_image(make_news(body="A story."), editor)
    thumbnail = item.image_renditions["thumbnail"]["jpg"]
    listing = visitor.get(reverse("news:index")).content.decode()
    assert 'class="picture news-entry__image"' in listing
    assert f"{default_storage.url(thumbnail[1])} 240w" in listing
    assert 'alt="What it shows"' in listing
    page = visitor.get(item.get_absolute_url()).content.decode()
    assert f"{default_storage.url(item.image_renditions['page']['jpg'][2])} 2160w" in page
    assert f'<meta property="og:image" content="http://testserver{item.image.url}">' in page


def test_the_paper_entry_and_page_show_the_teaser(editor, visitor):
    paper = with_image(make_publication(), editor)
    listing = visitor.get(reverse("publications:index")).content.decode()
    assert 'class="picture publication__teaser"' in listing
    page = visitor.get(paper.get_absolute_url()).content.decode()
    assert 'class="picture page-image page-image--teaser"' in page


def test_the_group_card_and_page_show_the_picture(editor, visitor):
    group = with_image(make_group(), editor)
    assert (
        'class="picture group-card__image"' in visitor.get(reverse("groups:index")).content.decode()
    )
    page = visitor.get(group.get_absolute_url()).content.decode()
    assert 'class="picture page-image page-image--wide"' in page


def test_pages_without_images_show_no_picture(visitor):
    item = make_news(body="A story.")
    paper = make_publication()
    group = make_group()
    for url in (
        reverse("news:index"),
        item.get_absolute_url(),
        reverse("publications:index"),
        paper.get_absolute_url(),
        reverse("groups:index"),
        group.get_absolute_url(),
    ):
        assert "<picture" not in visitor.get(url).content.decode(), url


@pytest.mark.parametrize("url_name", ["news:index", "publications:index", "groups:index"])
def test_pictures_cost_a_list_no_query(editor, visitor, url_name):
    """The renditions' names are on the row: showing the pictures reads no other table."""
    make_rows = {
        "news:index": lambda number: make_news(body=f"Story {number}."),
        "publications:index": lambda number: make_publication(),
        "groups:index": lambda number: ResearchGroup.objects.create(
            name=f"Group {number}", slug=f"group-{number}"
        ),
    }[url_name]
    rows = [make_rows(number) for number in range(3)]
    without = count_queries(visitor, reverse(url_name))
    for row in rows:
        with_image(row, editor)
    page = visitor.get(reverse(url_name)).content.decode()
    assert page.count("<picture") == 3
    assert count_queries(visitor, reverse(url_name)) == without
