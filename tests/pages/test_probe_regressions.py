"""What a probe of the served site as a hostile visitor and a careless staff member broke: each
test is one input that answered 500 (or worse) before its fix."""

import pytest
from django.urls import reverse

from base.models import Lab
from tests.factories import make_group, make_news, make_person, make_publication, make_venue

pytestmark = pytest.mark.django_db

# Addresses typed or pasted by hand: not a number, a float, a NUL, a character the admin's own
# quoting decodes ("_5F" is "_").
MALFORMED_IDS = ["abc", "1.0", "%00", "_5F"]


def every_history_admin_object():
    return [
        make_person(name="Hang Zhu"),
        make_group(),
        make_publication(title="Fast Caches"),
        make_venue(),
        make_news(),
        Lab.objects.current(),
    ]


def history_url(obj, object_id: str) -> str:
    name = f"admin:{obj._meta.app_label}_{obj._meta.model_name}_history"
    return reverse(name, args=["0"]).replace("/0/", f"/{object_id}/")


def version_url(obj, object_id: str, version_id: str) -> str:
    name = f"admin:{obj._meta.app_label}_{obj._meta.model_name}_simple_history"
    return reverse(name, args=["0", "0"]).replace(
        "/0/history/0/", f"/{object_id}/history/{version_id}/"
    )


def test_a_history_page_with_a_malformed_id_is_not_found(editor_client):
    """django-simple-history filters the history by the id as typed, before it looks for the
    object: "abc" raised ValueError, a 500 on every model's History page."""
    for obj in every_history_admin_object():
        for object_id in MALFORMED_IDS:
            response = editor_client.get(history_url(obj, object_id))
            assert response.status_code == 404, (obj, object_id, response.status_code)


def test_a_history_version_with_a_malformed_id_is_not_found(editor_client):
    """The version page looked the version up by both ids as typed: a 500 for "abc" in
    either place."""
    for obj in every_history_admin_object():
        for object_id, version_id in [
            *[(malformed, "1") for malformed in MALFORMED_IDS],
            *[(str(obj.pk), malformed) for malformed in MALFORMED_IDS],
        ]:
            response = editor_client.get(version_url(obj, object_id, version_id))
            assert response.status_code == 404, (obj, object_id, version_id, response.status_code)


def test_a_history_page_with_a_wellformed_id_still_opens(editor_client):
    """The check of the ids refuses only what cannot be an id."""
    person = make_person(name="Hang Zhu")
    response = editor_client.get(history_url(person, str(person.pk)))
    assert response.status_code == 200
    assert "Hang Zhu" in response.content.decode()


def test_a_history_page_has_no_inline_style(editor_client):
    """django-simple-history's list of versions wrote `style="border-top: 0"` on its
    paginator: the strict Content-Security-Policy blocked it, and Chromium reported a
    violation on every History page."""
    person = make_person(name="Hang Zhu")
    html = editor_client.get(history_url(person, str(person.pk))).content.decode()
    assert 'class="paginator"' in html
    assert " style=" not in html and "<style" not in html
