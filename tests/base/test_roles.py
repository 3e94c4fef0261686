"""Editors edit everything; a member edits only their own profile and the publications they
author; an anonymous visitor nothing. Checked through the admin's own URLs."""

import pytest
from django.contrib.auth.models import Group
from django.contrib.messages import get_messages
from django.urls import reverse

from base.models import Lab
from news.models import NewsItem
from people.models import Education
from publications.models import Publication
from tests.admin_forms import inline_management, post_person
from tests.factories import make_group, make_news, make_person, make_publication, make_venue

pytestmark = pytest.mark.django_db


@pytest.fixture
def lab(django_user_model):
    """Two members with a paper each, one shared paper, and an editor."""

    def login(username, group):
        user = django_user_model.objects.create_user(username, password="pw", is_staff=True)
        user.groups.add(Group.objects.get(name=group))
        return user

    ada_login, grace_login = login("ada", "Member logins"), login("grace", "Member logins")
    ada = make_person(name="Ada Lovelace", slug="ada", user=ada_login)
    grace = make_person(name="Grace Hopper", slug="grace", user=grace_login)
    return {
        "editor": login("edith", "Editors"),
        "ada_login": ada_login,
        "grace_login": grace_login,
        "ada": ada,
        "grace": grace,
        "ada_paper": make_publication(title="Ada's", authors=[ada, "Outsider"]),
        "grace_paper": make_publication(title="Grace's", authors=[grace]),
        "shared_paper": make_publication(title="Shared", authors=[grace, ada]),
        "ada_education": Education.objects.create(person=ada, position=1, institution="A"),
        "grace_education": Education.objects.create(person=grace, position=1, institution="G"),
        "news": make_news(),
        "venue": make_venue(),
        "group": make_group(),
        "lab": Lab.objects.current(),
    }


def change_url(obj) -> str:
    return reverse(f"admin:{obj._meta.app_label}_{obj._meta.model_name}_change", args=[obj.pk])


def status_for(client, user, url) -> int:
    if user is not None:
        client.force_login(user)
    return client.get(url).status_code


@pytest.mark.parametrize(
    ("who", "what", "status"),
    [
        ("editor", "ada", 200),
        ("editor", "grace_paper", 200),
        ("editor", "news", 200),
        ("ada_login", "ada", 200),
        ("ada_login", "grace", 403),
        ("ada_login", "ada_paper", 200),
        ("ada_login", "shared_paper", 200),
        ("ada_login", "grace_paper", 403),
        ("ada_login", "news", 403),
        ("ada_login", "lab", 403),
        ("ada_login", "group", 403),
        ("ada_login", "venue", 200),  # read-only: members pick venues for their papers
        ("grace_login", "ada", 403),
        ("grace_login", "shared_paper", 200),
        ("editor", "lab", 200),
        ("editor", "group", 200),
        (None, "news", 302),
        (None, "ada", 302),
        (None, "ada_paper", 302),
    ],
)
def test_change_pages_answer_each_role(client, lab, who, what, status):
    user = lab[who] if who else None
    assert status_for(client, user, change_url(lab[what])) == status


def test_member_sees_only_their_own_rows_in_the_lists(client, lab):
    client.force_login(lab["ada_login"])
    people = client.get(reverse("admin:people_person_changelist")).context["cl"].result_list
    assert [person.name for person in people] == ["Ada Lovelace"]
    papers = (
        client.get(reverse("admin:publications_publication_changelist")).context["cl"].result_list
    )
    assert sorted(paper.title for paper in papers) == ["Ada's", "Shared"]


def test_member_cannot_add_people_delete_papers_or_touch_news(client, lab):
    client.force_login(lab["ada_login"])
    assert client.get(reverse("admin:people_person_add")).status_code == 403
    delete = reverse("admin:publications_publication_delete", args=[lab["ada_paper"].pk])
    assert client.get(delete).status_code == 403
    assert client.get(reverse("admin:news_newsitem_changelist")).status_code == 403
    assert (
        client.post(
            reverse("admin:news_newsitem_delete", args=[lab["news"].pk]), {"post": "yes"}
        ).status_code
        == 403
    )
    assert NewsItem.objects.filter(pk=lab["news"].pk).exists()


def test_member_cannot_relink_logins_or_regroup_themselves(client, lab):
    client.force_login(lab["ada_login"])
    form = client.get(change_url(lab["ada"])).context["adminform"].form
    assert "user" not in form.fields
    assert "role_group" not in form.fields


def test_member_cannot_post_changes_to_another_persons_entries(client, lab):
    client.force_login(lab["ada_login"])
    response = client.post(change_url(lab["grace"]), {"name": "Hijacked"})
    assert response.status_code == 403
    lab["grace"].refresh_from_db()
    assert lab["grace"].name == "Grace Hopper"


def test_a_staff_login_in_no_role_sees_nothing(client, django_user_model):
    nobody = django_user_model.objects.create_user("nobody", password="pw", is_staff=True)
    client.force_login(nobody)
    assert client.get(reverse("admin:people_person_changelist")).status_code == 403


def test_editor_can_link_a_login_to_a_person(client, lab):
    client.force_login(lab["editor"])
    form = client.get(change_url(lab["ada"])).context["adminform"].form
    assert "user" in form.fields


def test_a_member_adding_a_paper_without_themselves_becomes_its_last_author(client, lab):
    client.force_login(lab["ada_login"])
    data = {
        "title": "New Paper",
        "slug": "new-paper",
        "year": "2026",
        "type": "conference-paper",
        "status": "published",
        "is_published": "on",
        **inline_management("authorships", total=1),
        "authorships-0-position": "1",
        "authorships-0-name": "Someone Else",
        **inline_management("awards"),
        **inline_management("links"),
    }
    response = client.post(reverse("admin:publications_publication_add"), data)
    assert response.status_code == 302
    paper = Publication.objects.get(slug="new-paper")
    authors = list(
        paper.authorships.order_by("position").values_list("name", "researcher__profile")
    )
    assert authors == [("Someone Else", None), ("Ada Lovelace", lab["ada"].pk)]
    assert client.get(change_url(paper)).status_code == 200


def test_only_editors_import_bibtex(client, lab):
    url = reverse("admin:publications_publication_import_bibtex")
    client.force_login(lab["ada_login"])
    assert client.get(url).status_code == 403
    assert (
        "Import BibTeX"
        not in client.get(reverse("admin:publications_publication_changelist")).content.decode()
    )
    client.force_login(lab["editor"])
    assert client.get(url).status_code == 200


def test_a_member_sees_a_venue_but_cannot_change_it(client, lab):
    client.force_login(lab["ada_login"])
    response = client.post(change_url(lab["venue"]), {"short_name": "HACKED", "kind": "conference"})
    assert response.status_code == 403
    lab["venue"].refresh_from_db()
    assert lab["venue"].short_name != "HACKED"


def test_a_member_reads_their_history_but_cannot_revert_it(client, lab):
    client.force_login(lab["ada_login"])
    ada = lab["ada"]
    assert client.get(reverse("admin:people_person_history", args=[ada.pk])).status_code == 200
    version = ada.history.earliest()
    revert = reverse("admin:people_person_simple_history", args=[ada.pk, version.history_id])
    assert client.get(revert).status_code == 403
    assert client.post(revert, {"name": ada.name, "slug": "elsewhere"}).status_code == 403


def publication_post(paper, **authors) -> dict:
    return {
        "title": paper.title,
        "slug": paper.slug,
        "year": "2024",
        "type": "conference-paper",
        "status": "published",
        "is_published": "on",
        "is_featured": "on",
        **inline_management("authorships", total=1),
        "authorships-0-position": "9",
        **authors,
        **inline_management("awards"),
        **inline_management("links"),
    }


def test_a_member_links_an_author_only_to_the_member_of_that_name(client, lab):
    client.force_login(lab["ada_login"])
    paper, grace = lab["ada_paper"], lab["grace"]
    wrong = publication_post(
        paper, **{"authorships-0-name": "Someone", "authorships-0-researcher": grace.pk}
    )
    response = client.post(change_url(paper), wrong)
    assert response.status_code == 200
    assert "is not Grace Hopper" in response.content.decode()
    assert not paper.authorships.filter(researcher=grace).exists()

    right = publication_post(
        paper, **{"authorships-0-name": "Grace Hopper", "authorships-0-researcher": grace.pk}
    )
    assert client.post(change_url(paper), right).status_code == 302
    # Grace's profile lists it once she confirms (tests/test_member_papers.py).
    assert paper.authorships.filter(researcher=None, proposed_person=grace).exists()


def test_a_member_cannot_feature_their_paper(client, lab):
    client.force_login(lab["ada_login"])
    paper = lab["ada_paper"]
    data = publication_post(paper, **{"authorships-0-name": "Another Author"})
    assert client.post(change_url(paper), data).status_code == 302
    paper.refresh_from_db()
    assert not paper.is_featured


def test_drafts_are_previewed_by_editors_and_by_their_own_member_only(
    client, lab, django_user_model
):
    draft = make_publication(title="Draft", slug="draft", is_published=False, authors=[lab["ada"]])
    url = draft.get_absolute_url()
    client.force_login(lab["ada_login"])
    assert client.get(url).status_code == 200
    client.force_login(lab["grace_login"])
    assert client.get(url).status_code == 404
    client.force_login(
        django_user_model.objects.create_user("norole", password="pw", is_staff=True)
    )
    assert client.get(url).status_code == 404
    client.force_login(lab["editor"])
    assert client.get(url).status_code == 200


def test_linking_a_login_without_staff_status_gives_it_what_signing_in_needs(
    client, lab, django_user_model
):
    """Before, the link was accepted and the member's sign-in then said the password was
    wrong."""
    login = django_user_model.objects.create_user("lin", password="pw-for-lin")
    linus = make_person(name="Linus Torvalds", slug="linus")
    client.force_login(lab["editor"])
    response = post_person(client, linus, user=str(login.pk))
    assert response.status_code == 302
    messages = [str(message) for message in get_messages(response.wsgi_request)]
    assert any("now has staff status and the Member logins group" in m for m in messages)
    client.logout()
    credentials = {"username": "lin", "password": "pw-for-lin", "next": reverse("admin:index")}
    signed_in = client.post(reverse("admin:login"), credentials, follow=True)
    assert "<h1>Edit my profile</h1>" in signed_in.content.decode()


def test_linking_a_switched_off_login_is_refused_with_the_reason(client, lab, django_user_model):
    login = django_user_model.objects.create_user("gone", password="pw", is_active=False)
    linus = make_person(name="Linus Torvalds", slug="linus")
    client.force_login(lab["editor"])
    response = post_person(client, linus, user=str(login.pk))
    assert response.status_code == 200
    assert "is switched off" in str(response.context["adminform"].form.errors["user"])
    linus.refresh_from_db()
    assert linus.user is None
