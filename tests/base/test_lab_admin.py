"""The admin as the lab's staff meet it: the lab's name and words, sections that show what they
hold, each role landing where it works, refusals that say what to do instead, members
proposing venues, and members' papers waiting for an editor when the lab wants that."""

import re

import pytest
from django.contrib.auth.models import Group, Permission
from django.test import override_settings
from django.urls import reverse

from base.models import Lab
from people.models import Education
from publications.models import Publication, Venue
from tests.admin_forms import inline_management
from tests.factories import make_person, make_publication, make_venue

pytestmark = pytest.mark.django_db


@pytest.fixture
def member(client, django_user_model):
    """Ada, a member signed in."""
    login = django_user_model.objects.create_user("ada", password="pw", is_staff=True)
    login.groups.add(Group.objects.get(name="Member logins"))
    person = make_person(name="Ada Lovelace", slug="ada", user=login)
    client.force_login(login)
    return person


def new_paper(**fields) -> dict:
    return {
        "title": "A Member's Paper",
        "slug": "a-members-paper",
        "year": "2026",
        "type": "conference-paper",
        "status": "published",
        "is_published": "on",
        **inline_management("authorships"),
        **inline_management("awards"),
        **inline_management("links"),
        **fields,
    }


# The lab's name and words ----------------------------------------------------------------------


def test_the_header_and_title_are_the_labs_name(editor_client):
    Lab.objects.filter(pk=Lab.objects.current().pk).update(name="Zhu Systems Lab")
    page = editor_client.get(reverse("admin:index")).content.decode()
    assert re.search(r'<div id="site-name"><a href="/admin/">Zhu Systems Lab</a></div>', page)
    assert "<title>What to edit | Zhu Systems Lab admin</title>" in page
    assert "Django administration" not in page and "Django site admin" not in page


def test_the_forms_use_the_labs_words(editor_client):
    person = make_person()
    person_page = editor_client.get(reverse("admin:people_person_change", args=[person.pk]))
    paper_page = editor_client.get(reverse("admin:publications_publication_add"))
    labels = [
        str(field.label)
        for page in (person_page, paper_page)
        for field in page.context["adminform"].form.fields.values()
    ]
    for label in [
        "Visible on the site",
        "Web address (slug)",
        "Photo description for screen readers",
        "Directory section",
        "Publication stage",
    ]:
        assert label in labels
    for confusing in ["Is published", "Slug", "Photo alt", "Role group", "Status"]:
        assert confusing not in labels


def test_the_lab_settings_open_straight_to_their_form(editor_client):
    response = editor_client.get(reverse("admin:directory_lab_changelist"))
    assert response.status_code == 302
    assert response["Location"] == reverse(
        "admin:directory_lab_change", args=[Lab.objects.current().pk]
    )
    index = editor_client.get(reverse("admin:index")).content.decode()
    assert "Lab settings" in index


def test_sign_in_records_are_for_superusers_only(client, django_user_model):
    editor = django_user_model.objects.create_user("edith", password="pw", is_staff=True)
    editor.groups.add(Group.objects.get(name="Editors"))
    editor.user_permissions.add(*Permission.objects.filter(content_type__app_label="axes"))
    client.force_login(editor)
    assert "Refused sign-ins" not in client.get(reverse("admin:index")).content.decode()
    assert client.get(reverse("admin:axes_accessattempt_changelist")).status_code == 403
    superuser = django_user_model.objects.create_superuser("root", "r@example.org", "pw")
    client.force_login(superuser)
    assert "Refused sign-ins" in client.get(reverse("admin:index")).content.decode()


def test_filled_sections_are_open_with_their_count_and_empty_ones_folded(editor_client):
    person = make_person()
    for position, institution in enumerate(["JHU", "SJTU"], start=1):
        Education.objects.create(person=person, position=position, institution=institution)
    page = editor_client.get(reverse("admin:people_person_change", args=[person.pk]))
    text = page.content.decode()
    education = text[text.index('id="education-group"') :][:1500]
    teaching = text[text.index('id="teaching-group"') :][:1500]
    assert "Education (2)" in education and "<details>" not in education
    assert "Teaching (0)" in teaching and "<details>" in teaching


def index_sections(page: str) -> list[tuple[str, list[str]]]:
    """The index's sections as staff read them: each caption with its models' names."""
    sections = []
    for caption, body in re.findall(
        r'<caption>\s*<a [^>]*class="section"[^>]*>([^<]+)</a>\s*</caption>(.*?)</table>',
        page,
        re.S,
    ):
        names = re.findall(r'<th scope="row"[^>]*>\s*(?:<a [^>]*>)?([^<]+)<', body)
        sections.append((caption.strip(), [name.strip() for name in names]))
    return sections


def test_the_index_is_grouped_by_task_with_the_plumbing_last_under_system(admin_client):
    page = admin_client.get(reverse("admin:index")).content.decode()
    sections = index_sections(page)
    assert [caption for caption, _ in sections] == [
        "People",
        "Publications",
        "News",
        "Talks and events",
        "Projects and grants",
        "Datasets and software",
        "Site",
        "System",
    ]
    names = dict(sections)
    assert names["Projects and grants"] == ["Projects", "Grants", "Funders"]
    assert names["People"][:3] == ["People", "Directory sections", "Research groups"]
    assert names["Publications"] == [
        "Publications",
        "Claims and corrections",
        "Suggested works",
        "Venues",
        "Checks for new works",
    ]
    assert names["System"][:3] == ["Logins", "Login groups (rights)", "Background tasks"]
    # No programmer's word leads the page, and logins' groups are not beside research groups.
    words = re.sub(r"<[^>]+>", " ", page).lower()
    for jargon in ("authentication and authorization", "axes", "tasks database backend"):
        assert jargon not in words
    assert "Groups" not in names["People"] + names["System"]


def test_one_apps_own_page_still_lists_that_app(admin_client):
    page = admin_client.get(reverse("admin:app_list", args=["publications"])).content.decode()
    assert [caption for caption, _ in index_sections(page)][:1] == ["Publications"]


# Members ---------------------------------------------------------------------------------------


def test_a_member_signing_in_lands_on_their_profile_with_their_papers_one_click_away(
    client, django_user_model
):
    login = django_user_model.objects.create_user("ada", password="a-long-pass-1", is_staff=True)
    login.groups.add(Group.objects.get(name="Member logins"))
    person = make_person(name="Ada Lovelace", user=login)
    response = client.post(
        reverse("admin:login"),
        {"username": "ada", "password": "a-long-pass-1", "next": reverse("admin:index")},
        follow=True,
    )
    assert response.redirect_chain[-1][0] == reverse("admin:people_person_change", args=[person.pk])
    page = response.content.decode()
    assert "<h1>Edit my profile</h1>" in page
    assert f'href="{reverse("admin:publications_publication_changelist")}">My papers</a>' in page


def test_a_refused_page_is_an_admin_page_saying_what_a_member_may_do(client, member):
    other = make_person(name="Grace Hopper")
    response = client.get(reverse("admin:people_person_change", args=[other.pk]))
    assert response.status_code == 403
    page = response.content.decode()
    assert 'id="site-name"' in page  # the admin's design
    assert "you may edit your own profile and the papers you are an author of" in page
    assert f'href="{reverse("admin:people_person_change", args=[member.pk])}">Edit my profile' in (
        page
    )


def test_a_member_proposes_a_new_venue_but_not_one_that_exists(client, member):
    make_venue(short_name="NSDI", full_name="USENIX Symposium on Networked Systems Design")
    add = reverse("admin:publications_venue_add")
    assert client.get(add).status_code == 200
    response = client.post(
        add, {"short_name": "HotThings", "full_name": "Workshop on Hot Things", "kind": "workshop"}
    )
    assert response.status_code == 302
    assert Venue.objects.get(short_name="HotThings").history.get().history_user.person == member
    duplicate = client.post(add, {"short_name": "NSDI '26", "full_name": "", "kind": "conference"})
    assert duplicate.status_code == 200
    assert "is already here: USENIX Symposium on Networked Systems Design (NSDI)" in (
        duplicate.content.decode()
    )


def test_a_members_new_paper_waits_for_an_editor_who_sees_it_listed(
    client, member, django_user_model
):
    response = client.post(reverse("admin:publications_publication_add"), new_paper())
    assert response.status_code == 302
    paper = Publication.objects.get(slug="a-members-paper")
    assert not paper.is_published
    editor = django_user_model.objects.create_user("edith", password="pw", is_staff=True)
    editor.groups.add(Group.objects.get(name="Editors"))
    client.force_login(editor)
    index = client.get(reverse("admin:index")).content.decode()
    assert "Waiting for an editor (1)" in index
    assert "A Member&#x27;s Paper" in index and "from Ada Lovelace" in index


@override_settings(MEMBER_PAPERS_WAIT_FOR_EDITOR=False)
def test_a_lab_may_publish_members_papers_at_once(client, member):
    assert client.post(reverse("admin:publications_publication_add"), new_paper()).status_code
    assert Publication.objects.get(slug="a-members-paper").is_published


def test_a_member_cannot_publish_their_waiting_paper_themselves(client, member):
    paper = make_publication(is_published=False, authors=[member])
    form = (
        client.get(reverse("admin:publications_publication_change", args=[paper.pk]))
        .context["adminform"]
        .form
    )
    assert "is_published" not in form.fields
