"""A member's talks, datasets and software wait for an editor as their papers do
(MEMBER_PAPERS_WAIT_FOR_EDITOR, on by default): what a member adds is a draft until an editor
publishes it, the member cannot publish it themself, editors find it under the admin list's
"review" filter and on the index; an editor's own additions are published as typed."""

import pytest
from django.urls import reverse

from events.models import Event
from outputs.models import Output
from tests.events.test_event_admin import ADD_URL as ADD_TALK
from tests.events.test_event_admin import event_form
from tests.factories import make_member, make_staff_login
from tests.outputs.test_admin import ADD as ADD_OUTPUT
from tests.outputs.test_admin import new_output_form

pytestmark = pytest.mark.django_db


@pytest.fixture
def ada():
    return make_member("ada", "Ada Lovelace")


@pytest.fixture
def editor():
    return make_staff_login("edith", role="Editors")


def test_a_members_talk_is_a_draft_until_an_editor_publishes_it(client, ada, editor, settings):
    client.force_login(ada.user)
    answer = client.post(ADD_TALK, event_form(), follow=True)
    assert "Your talk is saved as a draft: an editor publishes it" in answer.text
    talk = Event.objects.get(slug="caching-at-scale")
    assert not talk.is_published
    # Ticking "published" on the change form does not publish it either: the box is not theirs.
    change = reverse("admin:events_event_change", args=[talk.pk])
    assert 'name="is_published"' not in client.get(change).text
    client.post(change, event_form(is_published="on"))
    talk.refresh_from_db()
    assert not talk.is_published

    client.force_login(editor)
    waiting = client.get(reverse("admin:events_event_changelist") + "?waiting=editor")
    assert [row.title for row in waiting.context["cl"].result_list] == ["Caching at scale"]
    index = client.get(reverse("admin:index")).text
    assert "A talk to publish, from Ada Lovelace" in index
    client.post(change, event_form(speaker=str(ada.pk), is_published="on"))
    talk.refresh_from_db()
    assert talk.is_published

    # A lab that trusts its members has their talks on the site at once.
    settings.MEMBER_PAPERS_WAIT_FOR_EDITOR = False
    client.force_login(ada.user)
    client.post(ADD_TALK, event_form(slug="trusted", title="Trusted"))
    assert Event.objects.get(slug="trusted").is_published


def test_an_editors_talk_is_published_as_typed_and_waits_for_nobody(client, ada, editor):
    client.force_login(editor)
    client.post(ADD_TALK, event_form(speaker=str(ada.pk)))
    assert Event.objects.get(slug="caching-at-scale").is_published
    waiting = client.get(reverse("admin:events_event_changelist") + "?waiting=editor")
    assert list(waiting.context["cl"].result_list) == []


def test_a_members_dataset_or_software_waits_for_an_editor_too(client, ada, editor):
    client.force_login(ada.user)
    answer = client.post(ADD_OUTPUT, new_output_form(ada.pk), follow=True)
    assert "Your dataset or software is saved as a draft" in answer.text
    output = Output.objects.get(slug="ring-buffer")
    assert not output.is_published

    client.force_login(editor)
    listing = client.get(reverse("admin:outputs_output_changelist") + "?waiting=editor")
    assert [row.title for row in listing.context["cl"].result_list] == ["Ring buffer"]
    assert (
        "A dataset or software to publish, from Ada Lovelace"
        in client.get(reverse("admin:index")).text
    )
