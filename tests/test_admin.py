"""Staff do everything through the admin: every page of it must load."""

import pytest
from django.apps import apps
from django.contrib import admin
from django.urls import reverse

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("seeded")]

MODEL_ADMINS = sorted(
    (model._meta.app_label, model._meta.model_name) for model in admin.site._registry
)


@pytest.mark.parametrize(("app_label", "model_name"), MODEL_ADMINS)
def test_changelist_add_and_change_pages_load_for_an_editor(editor_client, app_label, model_name):
    # The lab settings have one row: their list opens straight to its form.
    changelist = editor_client.get(
        reverse(f"admin:{app_label}_{model_name}_changelist"), follow=True
    )
    assert changelist.status_code == 200
    model = apps.get_model(app_label, model_name)
    can_add = admin.site._registry[model].has_add_permission(changelist.wsgi_request)
    add_page = editor_client.get(reverse(f"admin:{app_label}_{model_name}_add"))
    assert add_page.status_code == (200 if can_add else 403)
    first = model._default_manager.order_by("pk").first()
    if first is not None:
        change_url = reverse(f"admin:{app_label}_{model_name}_change", args=[first.pk])
        assert editor_client.get(change_url).status_code == 200


def test_project_models_are_all_in_the_admin():
    assert {
        ("people", "person"),
        ("people", "rolegroup"),
        ("publications", "publication"),
        ("publications", "venue"),
        ("news", "newsitem"),
    } <= set(MODEL_ADMINS)


def test_publication_search_finds_by_author_name(editor_client):
    response = editor_client.get(
        reverse("admin:publications_publication_changelist"), {"q": "Kostis Kaffes"}
    )
    titles = [publication.title for publication in response.context["cl"].result_list]
    assert len(titles) == 1
    assert titles[0].startswith("RackSched")
