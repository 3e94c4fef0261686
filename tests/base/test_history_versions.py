"""History of whole objects: a paper with its authors, awards and links, a person with their
CV entries and links. Every object has a first version however it was made; differences read
as words; a revert restores the parts; recovering a deleted object restores what pointed at
it; a bad id in any history URL is a 404."""

import datetime
import io
import re

import pytest
from django.contrib import admin
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse
from PIL import Image

from base.history import HistoryAdmin
from base.models import HistorySnapshot, Lab
from base.versions import record_first_versions
from people.models import Advising, Collaboration, Departure, Person
from projects.models import Grant
from publications.bibtex import import_bibtex
from publications.models import Publication
from tests.admin_forms import inline_management, post_person
from tests.admin_pages import change_form_data
from tests.department import make_area, make_external, make_membership, make_research_group
from tests.factories import (
    make_event,
    make_group,
    make_news,
    make_person,
    make_publication,
    make_venue,
)
from tests.outputs.conftest import make_output
from tests.projects.conftest import make_funder, make_project

pytestmark = pytest.mark.django_db


def change_url(obj) -> str:
    return reverse(f"admin:{obj._meta.app_label}_{obj._meta.model_name}_change", args=[obj.pk])


def history_url(obj) -> str:
    return reverse(f"admin:{obj._meta.app_label}_{obj._meta.model_name}_history", args=[obj.pk])


def version_url(model, object_id, version_id) -> str:
    name = f"admin:{model._meta.app_label}_{model._meta.model_name}_simple_history"
    return reverse(name, args=[object_id, version_id])


def revert(client, model, object_id, record):
    url = version_url(model, object_id, record.history_id)
    page = client.get(url)
    assert page.status_code == 200
    return client.post(url, change_form_data(page))


def edit(client, obj, **changes):
    data = change_form_data(client.get(change_url(obj)))
    data.update(changes)
    response = client.post(change_url(obj), data)
    assert response.status_code == 302, response.context and response.context["errors"]
    return response


@pytest.fixture
def paper(editor_client):
    """A paper made in the admin, as staff make them: its first version has its authors."""
    data = {
        "title": "Original Title",
        "slug": "original",
        "year": "2024",
        "type": "conference-paper",
        "status": "published",
        "is_published": "on",
        **inline_management("authorships", total=2),
        "authorships-0-name": "Hang Zhu",
        "authorships-1-name": "Tao Wang",
        **inline_management("awards", total=1),
        "awards-0-name": "Best Paper Award",
        **inline_management("links"),
    }
    response = editor_client.post(reverse("admin:publications_publication_add"), data)
    assert response.status_code == 302, response.context["errors"]
    return Publication.objects.get(slug="original")


# Reverting -------------------------------------------------------------------------------------


def test_revert_restores_a_changed_author_name_with_the_title(editor_client, paper):
    first = paper.history.earliest()
    edit(editor_client, paper, title="New Title", **{"authorships-0-name": "H. Zhu"})
    paper.refresh_from_db()
    assert (paper.title, paper.authorships.first().name) == ("New Title", "H. Zhu")

    assert revert(editor_client, Publication, paper.pk, first).status_code == 302
    paper.refresh_from_db()
    assert paper.title == "Original Title"
    authors = list(paper.authorships.order_by("position").values_list("position", "name"))
    assert authors == [(1, "Hang Zhu"), (2, "Tao Wang")]


def test_revert_brings_back_deleted_and_reordered_authors_and_awards(editor_client, paper):
    first = paper.history.earliest()
    edit(
        editor_client,
        paper,
        **{
            "authorships-0-position": "2",
            "authorships-1-position": "1",
            "awards-0-DELETE": "on",
        },
    )
    assert not paper.awards.exists()
    revert(editor_client, Publication, paper.pk, first)
    assert list(paper.authorships.values_list("name", flat=True)) == ["Hang Zhu", "Tao Wang"]
    assert list(paper.awards.values_list("name", flat=True)) == ["Best Paper Award"]


def said(client, response) -> list[str]:
    """The messages the page a response leads to shows."""
    return [str(message) for message in client.get(response["Location"]).context["messages"]]


def history_rows(client, obj) -> list[str]:
    """Each row of the history page as text, newest first."""
    page = client.get(history_url(obj)).content.decode()
    body = page[page.index("<tbody>") : page.index("</tbody>")]
    rows = re.findall(r"<tr>(.*?)</tr>", body, re.S)
    return [" ".join(re.sub(r"<[^>]+>", " ", row).split()) for row in rows]


def test_a_revert_says_so_in_its_message_and_in_the_history(editor_client, paper):
    first = paper.history.earliest()
    edit(editor_client, paper, title="New Title")
    response = revert(editor_client, Publication, paper.pk, first)
    assert response["Location"] == change_url(paper)
    (message,) = said(editor_client, response)
    assert message.startswith("Reverted the publication “Original Title” to the version of ")
    assert "changed successfully" not in message
    newest = history_rows(editor_client, paper)[0]
    assert newest.startswith("Reverted ")
    assert "Reverted to the version of " in newest and "Title: New Title → Original Title" in newest


def test_a_revert_to_the_current_version_says_nothing_differed(editor_client, paper):
    revert(editor_client, Publication, paper.pk, paper.history.latest())
    newest = history_rows(editor_client, paper)[0]
    assert newest.startswith("Reverted ") and "Nothing differed from the version before." in newest
    assert "Saved without a change" not in newest


def test_a_version_is_shown_read_only_with_a_button_that_says_what_it_does(editor_client, paper):
    edit(editor_client, paper, title="New Title")
    first = paper.history.earliest()
    page = editor_client.get(version_url(Publication, paper.pk, first.history_id))
    assert all(field.disabled for field in page.context["adminform"].form.fields.values())
    html = page.content.decode()
    assert 'value="Revert to this version"' in html and "nothing here can be edited" in html
    # Whatever the browser sends, the version's values are what a revert saves.
    data = {**change_form_data(page), "title": "Typed into a version"}
    editor_client.post(version_url(Publication, paper.pk, first.history_id), data)
    paper.refresh_from_db()
    assert paper.title == "Original Title"


def test_revert_restores_a_persons_cv_entries(editor_client):
    person = make_person(name="Zerui Wang")
    post_person(
        editor_client,
        person,
        **inline_management("education", total=1),
        **{"education-0-institution": "SJTU", "education-0-start": "2023-09"},
    )
    with_sjtu = person.history.latest()
    edit(editor_client, person, **{"education-0-institution": "MIT"})
    assert person.education.get().institution == "MIT"
    revert(editor_client, Person, person.pk, with_sjtu)
    assert person.education.get().institution == "SJTU"
    assert str(person.education.get().start) == "Sep 2023"


def test_the_version_page_lists_its_authors(editor_client, paper):
    first = paper.history.earliest()
    edit(editor_client, paper, **{"authorships-0-name": "H. Zhu"})
    page = editor_client.get(version_url(Publication, paper.pk, first.history_id))
    text = page.content.decode()
    assert "Authors in this version" in text
    assert "<li>Hang Zhu</li>" in text and "<li>H. Zhu</li>" not in text
    assert "with its authors, awards, links" in text


# Differences in words --------------------------------------------------------------------------


def test_the_history_page_says_what_changed_in_words(editor_client, paper):
    edit(
        editor_client,
        paper,
        is_published="",
        **{"authorships-0-name": "H. Zhu", "authorships-TOTAL_FORMS": "3"},
        **{"authorships-2-name": "Xin Jin"},
    )
    page = editor_client.get(history_url(paper)).content.decode()
    assert "Visible on the site: yes → no" in page
    assert "Authors, “Hang Zhu”: Name: Hang Zhu → H. Zhu" in page
    assert "Authors: added “Xin Jin”" in page
    assert "First version" in page
    for noise in ("Change reason", "None", "False", "True"):
        assert noise not in page.split('id="change-history"')[1]


def test_a_member_linked_to_an_author_is_named_in_the_difference(editor_client, paper):
    member = make_person(name="Tao Wang", slug="tao-wang")
    edit(editor_client, paper, **{"authorships-1-researcher": str(member.pk)})
    page = editor_client.get(history_url(paper)).content.decode()
    assert "Authors, “Tao Wang”: Person: (empty) → Tao Wang" in page


# First versions --------------------------------------------------------------------------------


def test_a_seeded_object_has_a_first_version_with_its_parts():
    call_command("seed", verbosity=0)
    person = Person.objects.get(slug="zerui-wang")
    (first,) = person.history.all()
    assert (first.history_type, first.history_change_reason) == ("+", "Seeded")
    paper = Publication.objects.get(slug="vapo")
    (version,) = paper.history.all()
    snapshot = HistorySnapshot.objects.get(
        model="publications.publication", history_id=version.history_id
    )
    assert len(snapshot.parts["authorships"]) == paper.authorships.count() == 25
    assert all(item.history.exists() for item in paper.authorships.all())
    call_command("seed", verbosity=0)
    assert person.history.count() == 1  # safe to run twice


def test_an_imported_paper_has_a_first_version_with_its_authors():
    result = import_bibtex(
        text="@article{k, title={Imported}, author={Ada Lovelace and Grace Hopper}, "
        "journal={Journal of Tests}, url={https://example.org/k.pdf}}"
    )
    (paper,) = result.created
    (first,) = paper.history.all()
    assert first.history_change_reason == "Imported from BibTeX"
    assert [author.history.count() for author in paper.authorships.all()] == [1, 1]
    assert paper.links.get().history.exists()
    assert result.venues[0].history.get().history_change_reason == "Imported from BibTeX"
    snapshot = HistorySnapshot.objects.get(
        history_id=first.history_id, model="publications.publication"
    )
    assert [row["fields"]["name"] for row in snapshot.parts["authorships"]] == [
        "Ada Lovelace",
        "Grace Hopper",
    ]


def test_the_first_edit_of_a_seeded_paper_shows_its_difference(editor_client):
    call_command("seed", verbosity=0)
    paper = Publication.objects.get(slug="vapo")
    edit(editor_client, paper, year="2020")
    page = editor_client.get(history_url(paper)).content.decode()
    assert "Year: 2025 → 2020" in page


# Recovering ------------------------------------------------------------------------------------


def delete_and_recover(client, obj):
    """Delete `obj` in the admin, then recover it from "Recover deleted"; the row again."""
    model, pk = type(obj), obj.pk
    name = f"admin:{model._meta.app_label}_{model._meta.model_name}"
    assert client.post(reverse(f"{name}_delete", args=[pk]), {"post": "yes"}).status_code == 302
    assert not model._default_manager.filter(pk=pk).exists()
    (row,) = client.get(reverse(f"{name}_deleted")).context["rows"]
    assert client.post(row["url"], change_form_data(client.get(row["url"]))).status_code == 302
    return model._default_manager.get(pk=pk)


def test_a_recovery_says_so_in_its_message_and_in_the_history(editor_client, paper):
    model, pk = Publication, paper.pk
    editor_client.post(reverse("admin:publications_publication_delete", args=[pk]), {"post": "yes"})
    (row,) = editor_client.get(reverse("admin:publications_publication_deleted")).context["rows"]
    page = editor_client.get(row["url"])
    assert 'value="Recover it"' in page.content.decode()
    response = editor_client.post(row["url"], change_form_data(page))
    (message,) = said(editor_client, response)
    assert message == "Recovered the publication “Original Title”, as it was when it was deleted."
    assert history_rows(editor_client, model.objects.get(pk=pk))[0].startswith("Recovered ")


def test_a_recovered_person_gets_back_every_author_row_and_news_item(editor_client):
    person = make_person(name="Hang Zhu", slug="hang-zhu", aliases="H. Zhu")
    # Linked by an editor under a spelling that is not among the aliases.
    other_spelling = make_publication(authors=["Zhu Hang"])
    other_spelling.authorships.update(researcher=person)
    by_name = make_publication(authors=[person])
    news = make_news(title="Hang joins")
    news.people.add(person)
    restored = delete_and_recover(editor_client, person)
    assert other_spelling.authorships.get().person == restored
    assert by_name.authorships.get().person == restored
    assert list(news.people.all()) == [restored]


def test_a_recovered_paper_gets_back_its_news_items_and_authors(editor_client, paper):
    news = make_news(title="Paper accepted")
    news.publications.add(paper)
    restored = delete_and_recover(editor_client, paper)
    assert list(restored.news_items.all()) == [news]
    assert list(restored.authorships.values_list("name", flat=True)) == ["Hang Zhu", "Tao Wang"]


def test_a_recovered_role_group_gets_back_its_members(editor_client):
    group = make_group(name="PhD Students")
    people = [make_person(role_group=group) for _ in range(2)]
    restored = delete_and_recover(editor_client, group)
    assert list(restored.people.order_by("pk")) == people


def test_a_recovered_news_item_gets_back_its_people_and_papers(editor_client):
    person, paper = make_person(), make_publication()
    news = make_news(title="Both")
    news.people.add(person)
    news.publications.add(paper)
    restored = delete_and_recover(editor_client, news)
    assert list(restored.people.all()) == [person]
    assert list(restored.publications.all()) == [paper]


# Photos ----------------------------------------------------------------------------------------


def jpeg(colour: str) -> SimpleUploadedFile:
    buffer = io.BytesIO()
    Image.new("RGB", (300, 300), colour).save(buffer, format="JPEG")
    return SimpleUploadedFile(f"{colour}.jpg", buffer.getvalue(), content_type="image/jpeg")


def test_reverting_to_a_version_whose_photo_was_replaced_keeps_the_current_photo(
    editor_client, django_capture_on_commit_callbacks
):
    person = make_person(name="Ada")
    with django_capture_on_commit_callbacks(execute=True):
        post_person(editor_client, person, photo=jpeg("red"), photo_alt="Ada in red")
    with_red = person.history.latest()
    person.refresh_from_db()
    red = person.photo.name
    with django_capture_on_commit_callbacks(execute=True):
        post_person(editor_client, person, photo=jpeg("blue"), photo_alt="Ada in blue")
    person.refresh_from_db()
    blue = person.photo.name
    assert not person.photo.storage.exists(red)  # replaced files are deleted

    response = revert(editor_client, Person, person.pk, with_red)
    assert response.status_code == 302
    person.refresh_from_db()
    assert person.photo.name == blue
    assert person.photo.storage.exists(person.photo_thumbnail.name)
    assert person.photo_alt == "Ada in red"
    messages = [
        str(message) for message in editor_client.get(change_url(person)).context["messages"]
    ]
    assert any("no longer exists: the current one is kept" in message for message in messages)


# Bad ids ---------------------------------------------------------------------------------------

HISTORY_MODELS = sorted(
    (
        model
        for model, model_admin in admin.site._registry.items()
        if isinstance(model_admin, HistoryAdmin)
    ),
    key=lambda model: model._meta.label_lower,
)
MAKERS = {
    "person": make_person,
    "rolegroup": make_group,
    "publication": make_publication,
    "venue": make_venue,
    "newsitem": make_news,
    "lab": Lab.objects.current,
    # The department's (issue 13)
    "researcharea": make_area,
    "researchgroup": make_research_group,
    "externalperson": make_external,
    "membership": lambda: make_membership(make_person(), make_research_group()),
    "advising": lambda: Advising.objects.create(
        advisee=make_person(), position=1, advisor=make_person()
    ),
    "collaboration": lambda: Collaboration.objects.create(
        person=make_person(), position=1, collaborator=make_person()
    ),
    "departure": lambda: Departure.objects.create(person=make_person(), last_role="Student"),
    # Talks and events, datasets and software (issue 28)
    "event": lambda: make_event(starts_in=datetime.timedelta(days=1)),
    "output": make_output,
    # Projects and grants (issue 28)
    "project": make_project,
    "funder": make_funder,
    "grant": lambda: Grant.objects.create(funder=make_funder(), award_number="A-1"),
}


@pytest.mark.parametrize("model", HISTORY_MODELS, ids=lambda model: model._meta.label_lower)
def test_every_history_url_with_a_bad_id_answers_404(editor_client, model):
    real = MAKERS[model._meta.model_name]()
    record_first_versions(reason="Made by the test")  # the lab's row comes from a migration
    prefix = f"/admin/{model._meta.app_label}/{model._meta.model_name}"
    version = real.history.first().history_id
    for url in [
        f"{prefix}/abc/history/",
        f"{prefix}/abc/history/{version}/",
        f"{prefix}/{real.pk}/history/x/",
        f"{prefix}/{real.pk}/history/999999/",
        f"{prefix}/abc/change/",
        f"{prefix}/abc/delete/",
        f"{prefix}/999999/change/",
    ]:
        assert editor_client.get(url).status_code == 404, url
