"""The same validation at every way in: the admin's forms, the BibTeX import, loaddata and
seed, and code that saves without full_clean(). Each refusal names the field and what to fix,
and nothing is stored; on PostgreSQL a NUL never reaches the database (which would refuse it
with an error page)."""

import json

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from base.validation import (
    check_text,
    strip_control_characters,
    validate_initials,
    validate_rows,
)
from people.models import Person
from publications.bibtex import import_bibtex, parse_bibtex
from publications.models import Authorship, Publication, PublicationLink
from tests.admin_forms import new_publication_form, post_person
from tests.factories import make_person, make_publication

pytestmark = pytest.mark.django_db

LONG_URL = "https://example.org/" + "a" * 1904  # 1,924 characters, as an import once stored


# The rules ----------------------------------------------------------------------------------


@pytest.mark.parametrize("character", ["\x00", "\x01", "\x1b", "\x7f", "\x85", "\x9f"])
def test_a_control_character_is_refused_by_name_and_place(character):
    with pytest.raises(ValidationError) as refused:
        check_text(f"Fast{character} Caches", multi_line=True)
    assert f"U+{ord(character):04X}" in refused.value.messages[0]
    assert "after “Fast”" in refused.value.messages[0]


def test_line_breaks_and_tabs_are_text_in_a_multi_line_field_only():
    check_text("One\r\n\ttwo", multi_line=True)
    with pytest.raises(ValidationError, match="one line"):
        check_text("One\ntwo", multi_line=False)


def test_ligatures_right_to_left_and_combining_marks_are_text():
    # A bidi override ("\u202eevil") is refused since issue 22: tests/base/test_text_normalisation.py.
    for text in ["Ünïcode ﬁne", "שלום عربي", "e\u0301te\u0300", "漢字 😀"]:
        check_text(text, multi_line=False)


def test_stripping_keeps_words_apart():
    assert strip_control_characters("Fast\nCaches\x01!") == "Fast Caches!"
    assert strip_control_characters("One\n\x00two", multi_line=True) == "One\ntwo"


@pytest.mark.parametrize(("name", "hint"), [("ﬁona Smith", "“fi”"), ("ŉoel Adams", "“ʼn”")])
def test_a_name_whose_initial_capitalises_to_several_letters_is_refused(name, hint):
    with pytest.raises(ValidationError) as refused:
        validate_initials(name)
    assert hint in refused.value.messages[0]


def test_names_whose_initials_stay_two_letters_pass():
    for name in ["Fiona Smith", "Ólafur Arnalds", "Zhang Wei", "李 明", "Jean-Luc Picard", "Ada"]:
        validate_initials(name)
    validate_initials("Grafﬁti Artist")  # a ligature inside a word makes no initial


# Code that saves without full_clean() -------------------------------------------------------


def test_a_save_without_full_clean_is_still_checked():
    with pytest.raises(ValidationError) as refused:
        Publication.objects.create(title="Bells\x01", slug="bells", year=2024)
    assert "title" in refused.value.message_dict
    assert not Publication.objects.exists()


def test_a_year_out_of_range_is_refused_on_save():
    with pytest.raises(ValidationError) as refused:
        Publication.objects.create(title="Old", slug="old", year=999)
    assert "year" in refused.value.message_dict


def test_a_url_longer_than_its_field_is_refused_on_every_database():
    publication = make_publication()
    with pytest.raises(ValidationError) as refused:
        PublicationLink.objects.create(publication=publication, position=1, url=LONG_URL)
    assert "url" in refused.value.message_dict


def test_a_nul_is_refused_before_the_database_sees_it():
    """PostgreSQL would answer a NUL with an error; SQLite would store it."""
    with pytest.raises(ValidationError):
        make_person(name="Ada\x00 Lovelace")
    assert not Person.objects.exists()


def test_rows_for_bulk_create_are_checked_by_validate_rows():
    publication = make_publication()
    rows = [Authorship(publication=publication, position=1, name="Bob\x0b Smith")]
    with pytest.raises(ValidationError):
        validate_rows(rows)


# The admin ----------------------------------------------------------------------------------


def test_the_admin_refuses_a_control_character_with_a_message_on_the_field(editor_client):
    data = new_publication_form(title="Bells\x01 and Whistles", slug="bells")
    response = editor_client.post(reverse("admin:publications_publication_add"), data)
    assert response.status_code == 200
    assert (
        "Remove the control character U+0001"
        in response.context["adminform"].form.errors["title"][0]
    )
    assert not Publication.objects.exists()


def test_the_admin_refuses_a_nul_with_a_message_on_every_database(editor_client):
    person = make_person(name="Ada Lovelace")
    response = post_person(editor_client, person, name="Ada\x00 Lovelace")
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["name"]
    assert Person.objects.get(pk=person.pk).name == "Ada Lovelace"


def test_the_admin_refuses_a_ligature_initial_and_says_what_to_type(editor_client):
    person = make_person(name="Fiona Smith")
    response = post_person(editor_client, person, name="ﬁona Smith")
    assert response.status_code == 200
    [message] = response.context["adminform"].form.errors["name"]
    assert "type “fi” instead" in message
    assert Person.objects.get(pk=person.pk).name == "Fiona Smith"


# loaddata and seed --------------------------------------------------------------------------


def write_fixture(tmp_path, fields: dict) -> str:
    path = tmp_path / "bad.json"
    row = {"model": "publications.publication", "fields": {"slug": "bells", **fields}}
    path.write_text(json.dumps([row]))
    return str(path)


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"title": "Bells\u0001", "year": 2024}, "title"),
        ({"title": "Bells\u0000", "year": 2024}, "title"),
        ({"title": "Bells", "year": 0}, "year"),
        ({"title": "B" * 501, "year": 2024}, "title"),
    ],
)
def test_loaddata_refuses_a_row_validation_refuses(tmp_path, fields, field):
    with pytest.raises((ValidationError, CommandError)) as refused:
        call_command("loaddata", write_fixture(tmp_path, fields), verbosity=0)
    assert field in str(refused.value)
    assert not Publication.objects.exists()


def test_seed_loads_fixtures_that_pass_the_same_validation(db):
    call_command("seed", verbosity=0)
    assert Publication.objects.count() == 29  # each row went through the pre_save check


# The BibTeX import --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "words"),
    [
        ("title = {Bells\u0001 and Whistles}", "control character U+0001"),
        ("title = {Bells}, abstract = {Text\u0000}", "control character U+0000"),
        ("title = {Bells}, year = {0000}", "greater than or equal to 1000"),
        ("title = {Bells}, year = {0999}", "greater than or equal to 1000"),
        ("title = {Bells}, url = {" + LONG_URL + "}", "at most 200 characters"),
        ("title = {Bells}, author = {Bob\u0007 Smith}", "control character U+0007"),
        ("title = {Bells}, booktitle = {Work\u0002shop}", "control character U+0002"),
    ],
)
def test_the_bibtex_import_refuses_what_validation_refuses_naming_entry_and_line(field, words):
    text = "\n\n@inproceedings{bells2024,\n  " + field + ",\n  year = {2024}\n}\n"
    if "year = {0" in field:
        text = text.replace(",\n  year = {2024}", "")
    [entry] = parse_bibtex(text).entries
    assert any(words in problem for problem in entry.problems), entry.problems
    with pytest.raises(Exception, match="Nothing was imported"):
        import_bibtex(text=text)
    assert not Publication.objects.exists()


@pytest.mark.parametrize(
    "content",
    [
        b"@article{bells2024,\n  title = {Bells},\n  year = {2024}\n}\n% a stray \x00 here\n",
        b"@article{bells2024,\n  title = {Bel\x00ls},\n  year = {2024}\n}\n",
    ],
)
def test_a_bibtex_file_with_a_nul_is_refused_at_upload_on_every_database(editor_client, content):
    """PostgreSQL could not keep such a file for its review: the upload answered 500 there."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    from publications.models import BibtexImport

    url = reverse("admin:publications_publication_import_bibtex")
    response = editor_client.post(url, {"file": SimpleUploadedFile("p.bib", content), "text": ""})
    assert response.status_code == 400  # the admin's import page answers a refused upload so
    assert "contains a NUL character" in response.content.decode()
    assert not BibtexImport.objects.exists()
