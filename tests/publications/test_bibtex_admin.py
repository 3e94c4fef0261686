"""BibTeX import for staff: the admin's upload, review and confirm pages, and the command."""

import io

import pytest
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse

from publications.models import BibtexImport, Publication
from tests.factories import make_person, make_publication, make_venue

pytestmark = pytest.mark.django_db

URL = reverse("admin:publications_publication_import_bibtex")
CHANGELIST = reverse("admin:publications_publication_changelist")

BIB = """
@inproceedings{zhu2025new, title={A New Paper}, author={Zhu, Hang and Ada Lovelace},
  booktitle={Symposium on Examples (SoE)}, year=2025}
@article{old2020, title={Already Here}, year=2020}
@article{other2024, title={Another New One}, journal={Journal of Tests}, year=2024}
"""


def upload(client, content: bytes, name="papers.bib"):
    return client.post(URL, {"file": SimpleUploadedFile(name, content), "text": ""})


def confirm(client, response, skip=()):
    """The review page's form: the import it shows, and the entries ticked "Leave out"."""
    return client.post(URL, {"confirm": "1", "import": response.context["job"].pk, "skip": skip})


@pytest.fixture
def lab_member(django_user_model):
    """Staff who may look at publications in the admin but not add them."""
    member = django_user_model.objects.create_user("member", password="pw-member-1", is_staff=True)
    member.user_permissions.add(Permission.objects.get(codename="view_publication"))
    return member


def test_the_publication_list_links_to_the_import(editor_client):
    html = editor_client.get(CHANGELIST).content.decode()
    assert f'href="{URL}"' in html
    assert "Import BibTeX" in html


def test_the_review_shows_each_decision_and_saves_nothing(editor_client):
    make_person(name="Hang Zhu")
    existing = make_publication(title="Already Here", year=2020, type="journal-article")
    response = upload(editor_client, BIB.encode())
    assert response.status_code == 200
    html = response.content.decode()
    assert "3 entries, 2 new, 0 likely updates, 1 duplicate." in html
    assert "New venue:</strong> SoE (Symposium on Examples), conference" in html
    assert "member <a" in html and ">Hang Zhu</a>" in html
    assert f"Duplicate of “{existing.title}” (same title and year)" in html
    assert 'name="skip" value="zhu2025new"' in html
    assert 'name="skip" value="old2020"' not in html  # a duplicate is not imported anyway
    assert Publication.objects.count() == 1


def test_confirming_imports_all_but_the_entries_left_out(editor_client):
    hang = make_person(name="Hang Zhu")
    review = upload(editor_client, BIB.encode())
    response = confirm(editor_client, review, skip=["old2020", "other2024"])
    assert response.status_code == 302 and response["Location"] == CHANGELIST
    publication = Publication.objects.get()
    assert publication.title == "A New Paper"
    assert publication.authorships.get(position=1).person == hang
    assert BibtexImport.objects.get().text == ""  # the file is not kept once imported


def test_pasted_bibtex_works_like_a_file(editor_client):
    review = editor_client.post(URL, {"text": "@article{p, title={Pasted}}"})
    assert review.status_code == 200
    confirm(editor_client, review)
    assert Publication.objects.get().title == "Pasted"


def test_a_confirmation_for_another_review_imports_nothing(editor_client):
    upload(editor_client, BIB.encode())
    response = editor_client.post(URL, {"confirm": "1", "import": "0" * 32, "skip": []})
    assert response.status_code == 302 and response["Location"] == URL
    assert not Publication.objects.exists()


def test_ticked_entries_are_checked_again_against_the_database(editor_client):
    review = upload(editor_client, BIB.encode())
    # Someone adds the same paper while the review page is open.
    venue = make_venue(short_name="SoE", full_name="Symposium on Examples")
    make_publication(title="A New Paper", year=2025, venue=venue, type="conference-paper")
    response = confirm(editor_client, review)
    assert response.status_code == 400
    assert "no longer new or updates: zhu2025new" in response.content.decode()
    assert not Publication.objects.filter(title="Another New One").exists()


def test_another_editors_review_cannot_be_confirmed(editor_client, client, django_user_model):
    review = upload(editor_client, BIB.encode())
    other = django_user_model.objects.create_superuser("other", "other@example.org", "pw-other-1")
    client.force_login(other)
    response = confirm(client, review)
    assert response.status_code == 302 and response["Location"] == URL
    assert not Publication.objects.exists()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\xff\xfe@\x00a\x00r\x00t\x00", "The file is not UTF-8 text."),
        (b"", "The submitted file is empty."),
        (b"   \n  ", "this was empty"),
        (b"Dear colleagues, here are our papers.", "No BibTeX entry was found."),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "The file is not UTF-8 text."),
        (b"@article{big, title={" + b"x" * (2 * 1024 * 1024) + b"}}", "larger than 2 MB"),
    ],
)
def test_a_bad_upload_is_a_form_error_not_a_crash(editor_client, content, message):
    response = upload(editor_client, content)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Publication.objects.exists()


def test_a_broken_entry_is_listed_by_line_and_key_and_cannot_be_confirmed(editor_client):
    text = b"@article{fine, title={Fine}}\n@article{broken,\n  title = {Unclosed\n@article{after, title={After}}\n"
    review = upload(editor_client, text)
    assert review.status_code == 200
    html = review.content.decode()
    assert "Line 2, entry “broken”: is not valid BibTeX." in html
    assert 'name="confirm"' not in html
    forced = confirm(editor_client, review)
    assert forced.status_code == 400
    assert not Publication.objects.exists()


def test_staff_who_cannot_add_publications_cannot_import(client, lab_member):
    client.force_login(lab_member)
    assert client.get(URL).status_code == 403
    assert client.post(URL, {"text": BIB}).status_code == 403
    assert "Import BibTeX" not in client.get(CHANGELIST).content.decode()


def test_a_visitor_is_sent_to_the_login_page(client):
    response = client.get(URL)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("admin:login"))


# The command -----------------------------------------------------------------------------------


def run(*args) -> str:
    output = io.StringIO()
    call_command("import_bibtex", *args, stdout=output)
    return output.getvalue()


def test_the_command_prints_the_same_review_and_a_dry_run_imports_nothing(tmp_path):
    make_person(name="Hang Zhu", slug="hang-zhu")
    make_publication(title="Already Here", year=2020, type="journal-article")
    path = tmp_path / "papers.bib"
    path.write_text(BIB, encoding="utf-8")
    output = run(str(path), "--dry-run")
    assert "[new] zhu2025new (line 2): A New Paper" in output
    assert "members: Hang Zhu = hang-zhu" in output
    assert "new venue SoE (Symposium on Examples)" in output
    assert "[duplicate] old2020" in output
    assert "3 entries, 2 new, 0 likely updates, 1 duplicate." in output
    assert "Dry run: nothing was imported." in output
    assert Publication.objects.count() == 1


def test_the_command_imports_every_new_entry(tmp_path):
    path = tmp_path / "papers.bib"
    path.write_text(BIB, encoding="utf-8")
    output = run(str(path))
    assert "Imported 3 new, updated 0, added 2 venues." in output
    assert Publication.objects.count() == 3


def test_the_command_refuses_a_broken_file_and_imports_nothing(tmp_path):
    path = tmp_path / "broken.bib"
    path.write_text("@article{ok, title={OK}}\n@article{bad, year={x}}\n", encoding="utf-8")
    with pytest.raises(CommandError, match="Nothing was imported"):
        run(str(path))
    assert not Publication.objects.exists()


def test_the_command_says_when_a_file_is_not_utf8(tmp_path):
    path = tmp_path / "latin1.bib"
    path.write_bytes("@article{k, title={Café}}".encode("latin-1"))
    with pytest.raises(CommandError, match="is not UTF-8 text"):
        run(str(path))
