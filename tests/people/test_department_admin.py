"""The department in the admin, under the existing roles: editors manage groups, memberships,
advising and merges; a member edits their own research areas, and may choose external people
only for the author rows printed with their names."""

import pytest
from django.urls import reverse

from people.models import Advising, ExternalPerson, IdentityChange, Membership
from publications.models import Authorship, Publication
from tests.admin_forms import inline_management, post_person
from tests.department import make_area, make_external, make_membership, make_research_group
from tests.factories import make_person, make_publication, make_staff_login

pytestmark = pytest.mark.django_db


@pytest.fixture
def department():
    """An editor, a member (Ada) with a paper co-written with two records of Xin Jin, a group."""
    ada_login = make_staff_login("ada", role="Member logins")
    ada = make_person(name="Ada Lovelace", slug="ada", user=ada_login)
    paper = make_publication(title="Ada Paper", authors=[ada, "Xin Jin", "X. Jin", "Tao Wang"])
    group = make_research_group(name="Systems")
    make_membership(ada, group)
    xin, x = make_external(name="Xin Jin"), make_external(name="X. Jin")
    return {
        "editor": make_staff_login("edith", role="Editors"),
        "ada_login": ada_login,
        "ada": ada,
        "paper": paper,
        "group": group,
        "xin": xin,
        "x": x,
        "area": make_area(name="Networking"),
    }


def url(view: str, *args) -> str:
    return reverse(f"admin:{view}", args=args)


@pytest.mark.parametrize(
    ("view", "editor", "member"),
    [
        ("people_researchgroup_changelist", 200, 403),
        ("people_researchgroup_add", 200, 403),
        ("people_membership_changelist", 200, 403),
        ("people_advising_add", 200, 403),
        ("people_collaboration_add", 200, 403),
        ("people_departure_add", 200, 403),
        ("people_identitychange_changelist", 200, 403),
        ("people_researcharea_changelist", 200, 200),  # to choose their own areas
        ("people_researcharea_add", 200, 403),
        ("people_externalperson_changelist", 200, 200),  # to choose them for author rows
        ("people_externalperson_add", 200, 403),
    ],
)
def test_each_role_reaches_the_department_pages_it_should(client, department, view, editor, member):
    client.force_login(department["editor"])
    assert client.get(url(view)).status_code == editor
    client.force_login(department["ada_login"])
    assert client.get(url(view)).status_code == member


def test_a_member_sees_external_people_and_areas_read_only(client, department):
    client.force_login(department["ada_login"])
    page = client.get(url("people_externalperson_change", department["xin"].pk))
    assert page.status_code == 200
    assert not page.context["has_change_permission"]
    response = client.post(
        url("people_externalperson_change", department["xin"].pk), {"name": "Hijacked"}
    )
    assert response.status_code == 403
    assert client.get(url("people_externalperson_split", department["xin"].pk)).status_code == 403


def test_a_member_edits_their_own_research_areas(client, department):
    client.force_login(department["ada_login"])
    response = post_person(client, department["ada"], research_areas=[department["area"].pk])
    assert response.status_code == 302
    assert list(department["ada"].research_areas.all()) == [department["area"]]


def test_an_editor_adds_a_group_with_its_members_and_a_member_cannot(client, department):
    data = {
        "name": "Networks",
        "slug": "networks",
        "position": "1",
        "is_published": "on",
        **inline_management("memberships", total=1),
        "memberships-0-person": department["ada"].pk,
        "memberships-0-role": Membership.Role.PHD_STUDENT,
        "memberships-0-start": "Sep 2023",
    }
    client.force_login(department["ada_login"])
    assert client.post(url("people_researchgroup_add"), data).status_code == 403
    client.force_login(department["editor"])
    response = client.post(url("people_researchgroup_add"), data)
    assert response.status_code == 302
    membership = Membership.objects.get(group__slug="networks")
    assert (membership.person, str(membership.start)) == (department["ada"], "Sep 2023")


def test_a_membership_ending_before_it_starts_is_a_form_error_not_a_500(client, department):
    client.force_login(department["editor"])
    group = department["group"]
    data = {
        "name": group.name,
        "slug": group.slug,
        "position": "0",
        "is_published": "on",
        **inline_management("memberships", total=1),
        "memberships-0-person": make_person().pk,
        "memberships-0-start": "2022",
        "memberships-0-end": "2021",
        "memberships-0-role": Membership.Role.POSTDOC,
    }
    response = client.post(url("people_researchgroup_change", group.pk), data)
    assert response.status_code == 200
    assert "A membership cannot end before it starts." in response.content.decode()


def test_an_advisings_one_advisor_picker_takes_an_outsider_and_cannot_be_left_empty(
    client, department
):
    client.force_login(department["editor"])
    data = {
        "advisee": department["ada"].pk,
        "position": "1",
        "kind": Advising.Kind.ADVISOR,
        "is_current": "on",
    }
    response = client.post(url("people_advising_add"), data)
    assert response.status_code == 200
    assert "This field is required." in response.content.decode()
    data["advisor"] = department["xin"].pk
    assert client.post(url("people_advising_add"), data).status_code == 302
    assert Advising.objects.get().advisor_record == department["xin"]


def test_an_editor_merges_two_records_through_the_action_and_undoes_it(client, department):
    client.force_login(department["editor"])
    xin, x = department["xin"], department["x"]
    before = dict(Authorship.objects.values_list("pk", "researcher"))
    changelist = url("people_externalperson_changelist")
    chosen = {"action": "merge_selected", "_selected_action": [xin.pk, x.pk]}

    confirm = client.post(changelist, chosen)
    assert confirm.status_code == 200
    assert "Keep which record?" in confirm.content.decode()
    assert ExternalPerson.objects.count() == 2

    response = client.post(changelist, {**chosen, "keep": xin.pk})
    assert response.status_code == 302
    assert not ExternalPerson.objects.filter(pk=x.pk).exists()
    assert Authorship.objects.filter(researcher=xin).count() == 2
    change = IdentityChange.objects.get()
    assert change.made_by == department["editor"]

    undo = {"action": "undo_selected", "_selected_action": [change.pk]}
    assert client.post(url("people_identitychange_changelist"), undo).status_code == 302
    assert dict(Authorship.objects.values_list("pk", "researcher")) == before


def test_merging_one_record_or_three_is_refused_with_a_message(client, department):
    client.force_login(department["editor"])
    changelist = url("people_externalperson_changelist")
    response = client.post(
        changelist,
        {"action": "merge_selected", "_selected_action": [department["xin"].pk]},
        follow=True,
    )
    assert "Select exactly two records to merge." in response.content.decode()
    assert not IdentityChange.objects.exists()


def test_an_editor_splits_a_wrong_row_off_through_the_split_page(client, department):
    client.force_login(department["editor"])
    xin = department["xin"]
    row = Authorship.objects.get(researcher=xin)
    split = url("people_externalperson_split", xin.pk)
    page = client.get(split)
    assert "author 2 of Ada Paper" in page.content.decode()
    assert client.post(split, {}).status_code == 400  # nothing ticked
    response = client.post(split, {"authorships": [row.pk]})
    assert response.status_code == 302
    row.refresh_from_db()
    assert row.external != xin
    assert row.external.name == "Xin Jin"


def test_a_member_may_link_an_author_row_only_to_the_record_its_name_names(client, department):
    client.force_login(department["ada_login"])
    paper = department["paper"]
    rows = list(paper.authorships.order_by("position"))
    Authorship.objects.filter(publication=paper, researcher__profile=None).update(researcher=None)
    data = {
        "title": paper.title,
        "slug": paper.slug,
        "year": "2024",
        "type": Publication.Type.CONFERENCE_PAPER,
        "status": Publication.Status.PUBLISHED,
        "is_published": "on",
        **inline_management("awards"),
        **inline_management("links"),
        "authorships-TOTAL_FORMS": str(len(rows)),
        "authorships-INITIAL_FORMS": str(len(rows)),
        "authorships-MIN_NUM_FORMS": "0",
        "authorships-MAX_NUM_FORMS": "1000",
    }
    for number, row in enumerate(rows):
        data |= {
            f"authorships-{number}-id": row.pk,
            f"authorships-{number}-publication": paper.pk,
            f"authorships-{number}-position": row.position,
            f"authorships-{number}-name": row.name,
            f"authorships-{number}-researcher": row.researcher_id or "",
        }
    change = url("publications_publication_change", paper.pk)
    wrong = {**data, "authorships-3-researcher": department["xin"].pk}  # "Tao Wang"
    response = client.post(change, wrong)
    assert response.status_code == 200
    assert "This author is not Xin Jin: ask an editor." in response.content.decode()

    right = {**data, "authorships-1-researcher": department["xin"].pk}  # "Xin Jin"
    assert client.post(change, right).status_code == 302
    assert Authorship.objects.get(pk=rows[1].pk).external == department["xin"]


def test_a_merge_is_undone_with_one_button_on_its_own_page_in_a_sentence(client, department):
    """It took four clicks through an action, and said "1 rows put back."."""
    client.force_login(department["editor"])
    xin, x = department["xin"], department["x"]
    before = dict(Authorship.objects.values_list("pk", "researcher"))
    chosen = {"action": "merge_selected", "_selected_action": [xin.pk, x.pk], "keep": xin.pk}
    merged = client.post(url("people_externalperson_changelist"), chosen, follow=True)
    change = IdentityChange.objects.get()
    page_url = url("people_identitychange_change", change.pk)
    assert f'<a href="{page_url}">Undo it</a>' in merged.content.decode()

    page = client.get(page_url).content.decode()
    undo_url = url("people_identitychange_undo", change.pk)
    assert f'action="{undo_url}"' in page
    assert 'value="Undo this merge"' in page
    assert "1 author<" in page and '"ids"' not in page  # what moved, in words

    undone = client.post(undo_url, follow=True)
    assert undone.redirect_chain[-1][0] == page_url
    said = [str(message) for message in undone.context["messages"]]
    assert said == [f"Undone: {change} 1 row was put back."]
    assert dict(Authorship.objects.values_list("pk", "researcher")) == before
    assert 'value="Undo this merge"' not in undone.content.decode()  # done: no second undo


def test_a_member_cannot_undo_a_merge(client, department):
    client.force_login(department["editor"])
    xin, x = department["xin"], department["x"]
    chosen = {"action": "merge_selected", "_selected_action": [xin.pk, x.pk], "keep": xin.pk}
    client.post(url("people_externalperson_changelist"), chosen)
    change = IdentityChange.objects.get()
    client.force_login(department["ada"].user)
    assert client.post(url("people_identitychange_undo", change.pk)).status_code == 403
    assert IdentityChange.objects.get().undone_at is None
