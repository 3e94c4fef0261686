"""The admin's trail names each step once: an app called as the list ("Datasets and software",
"People", "Publications") is no step of its own (Home › Datasets and software › the item); an
app called otherwise stays one (Home › Publications › Venues › the venue)."""

import re

import pytest
from django.contrib import admin
from django.urls import reverse

from outputs.models import Output
from tests.factories import make_person, make_publication, make_venue

pytestmark = pytest.mark.django_db

MODEL_ADMINS = sorted(
    (model._meta.app_label, model._meta.model_name) for model in admin.site._registry
)


def trail(response) -> list[str]:
    """The steps of the page's breadcrumbs, as read."""
    html = response.content.decode()
    found = re.search(r'<div class="breadcrumbs">(.*?)</div>', html, re.DOTALL)
    assert found is not None, "the page has no breadcrumbs"
    text = re.sub(r"<[^>]+>", "", found.group(1)).replace("&rsaquo;", "›")
    return [" ".join(step.split()) for step in text.split("›")]


def assert_each_step_once(steps: list[str]) -> None:
    named = [step.casefold() for step in steps]
    assert len(set(named)) == len(named), steps


@pytest.mark.parametrize(("app_label", "model_name"), MODEL_ADMINS)
def test_every_list_and_add_page_names_each_step_once(admin_client, app_label, model_name):
    # The lab settings have one row: their list opens straight to its form.
    listed = admin_client.get(reverse(f"admin:{app_label}_{model_name}_changelist"), follow=True)
    assert_each_step_once(trail(listed))
    adding = admin_client.get(reverse(f"admin:{app_label}_{model_name}_add"))
    if adding.status_code == 200:
        assert_each_step_once(trail(adding))


# Rows the pages below are of, made by the test that asks for one.
ROWS = {
    "output": lambda: Output.objects.create(title="Traces", slug="traces"),
    "paper": lambda: make_publication(title="On caching"),
    "person": lambda: make_person(name="Ada Lovelace"),
    "venue": lambda: make_venue(short_name="TPDS", full_name="Parallel and Distributed Systems"),
}
TRAILS = [
    # An app called as the list is no step of its own.
    ("outputs_output_changelist", None, ["Home", "Datasets and software"]),
    ("outputs_output_change", "output", ["Home", "Datasets and software", "Traces"]),
    ("outputs_output_delete", "output", ["Home", "Datasets and software", "Traces", "Delete"]),
    ("outputs_output_history", "output", ["Home", "Datasets and software", "Traces", "History"]),
    ("outputs_output_import", None, ["Home", "Datasets and software", "Import"]),
    ("publications_publication_change", "paper", ["Home", "Publications", "On caching"]),
    ("publications_publication_import_bibtex", None, ["Home", "Publications", "Import BibTeX"]),
    ("people_person_add", None, ["Home", "People", "Add person"]),
    ("people_person_change", "person", ["Home", "People", "Ada Lovelace"]),
    # An app called otherwise stays a step.
    ("publications_venue_changelist", None, ["Home", "Publications", "Venues"]),
    ("publications_venue_change", "venue", ["Home", "Publications", "Venues", "TPDS"]),
]


@pytest.mark.parametrize(("url_name", "row", "steps"), TRAILS)
def test_the_trail_of_each_kind_of_page(admin_client, url_name, row, steps):
    args = [ROWS[row]().pk] if row else []
    assert trail(admin_client.get(reverse(f"admin:{url_name}", args=args))) == steps
