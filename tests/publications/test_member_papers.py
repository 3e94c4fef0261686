"""Which papers a member's profile lists is theirs to decide, or an editor's: another member
naming them proposes the link, and a link they remove stays removed."""

import pytest
from django.urls import reverse

from publications.models import Authorship, Publication
from tests.admin_forms import inline_management
from tests.admin_pages import change_form_data
from tests.department import make_external
from tests.factories import make_publication, make_venue

pytestmark = pytest.mark.django_db


@pytest.fixture
def lab(member_lab):
    return member_lab


def change_url(paper) -> str:
    return reverse("admin:publications_publication_change", args=[paper.pk])


def save_unchanged(client, paper):
    response = client.post(change_url(paper), change_form_data(client.get(change_url(paper))))
    assert response.status_code == 302, response.context and response.context["errors"]


def add_paper_naming_grace(client, ada):
    client.force_login(ada.user)
    data = {
        "title": "Shared Work",
        "slug": "shared-work",
        "year": "2026",
        "type": "conference-paper",
        "status": "published",
        **inline_management("authorships", total=2),
        "authorships-0-name": "Ada Lovelace",
        "authorships-1-name": "Grace Hopper",
        **inline_management("awards"),
        **inline_management("links"),
    }
    assert client.post(reverse("admin:publications_publication_add"), data).status_code == 302
    return Publication.objects.get(slug="shared-work")


def test_a_member_naming_another_member_only_proposes_the_link(client, lab):
    paper = add_paper_naming_grace(client, lab["ada"])
    grace_row = paper.authorships.get(name="Grace Hopper")
    assert (grace_row.person, grace_row.proposed_person) == (None, lab["grace"])
    assert not Publication.objects.authored_by(lab["grace"]).exists()
    assert Publication.objects.authored_by(lab["ada"]).get() == paper
    save_unchanged(client, paper)  # a later save by Ada does not link Grace either
    assert not Publication.objects.authored_by(lab["grace"]).exists()


def test_a_member_linking_another_member_by_hand_only_proposes_it(client, lab):
    paper = make_publication(authors=[lab["ada"], "Grace Hopper"])
    client.force_login(lab["ada"].user)
    data = change_form_data(client.get(change_url(paper)))
    data["authorships-1-researcher"] = str(lab["grace"].pk)
    assert client.post(change_url(paper), data).status_code == 302
    assert paper.authorships.get(name="Grace Hopper").proposed_person == lab["grace"]
    assert not Publication.objects.authored_by(lab["grace"]).exists()


def test_the_named_member_confirms_and_the_paper_is_on_their_profile(client, lab):
    paper = add_paper_naming_grace(client, lab["ada"])
    client.force_login(lab["grace"].user)
    landing = client.get(reverse("admin:index"), follow=True)
    assert "Other members named you as an author of 1 paper" in landing.content.decode()
    listing = client.get(reverse("admin:publications_publication_changelist"))
    (proposal,) = listing.context["proposals"]
    answer = reverse("admin:publications_publication_answer_proposal", args=[proposal.pk])
    assert "Yes, this is me" in listing.content.decode()
    assert client.post(answer, {"answer": "yes"}).status_code == 302
    assert Publication.objects.authored_by(lab["grace"]).get() == paper


def test_the_named_member_declines_and_no_later_save_links_them(client, lab):
    paper = add_paper_naming_grace(client, lab["ada"])
    proposal = paper.authorships.get(name="Grace Hopper")
    answer = reverse("admin:publications_publication_answer_proposal", args=[proposal.pk])
    client.force_login(lab["ada"].user)
    assert client.post(answer, {"answer": "yes"}).status_code == 403  # not Ada's to answer
    client.force_login(lab["grace"].user)
    client.post(answer, {"answer": "no"})
    client.force_login(lab["editor"])
    save_unchanged(client, paper)
    assert not Publication.objects.authored_by(lab["grace"]).exists()


def test_an_editors_plain_save_links_no_member_by_name_but_asks_them(client, lab):
    paper = make_publication(authors=["Ada Lovelace", "Grace Hopper"])
    client.force_login(lab["editor"])
    response = client.post(
        change_url(paper), change_form_data(client.get(change_url(paper))), follow=True
    )
    assert not Publication.objects.authored_by([lab["ada"], lab["grace"]]).exists()
    grace_row = paper.authorships.get(name="Grace Hopper")
    assert (grace_row.person, grace_row.proposed_person) == (None, lab["grace"])
    assert "Asked Grace Hopper to confirm" in response.content.decode()


def test_an_editor_picking_the_member_in_the_author_row_links_them_at_once(client, lab):
    paper = make_publication(authors=["Ada Lovelace", "Grace Hopper"])
    client.force_login(lab["editor"])
    data = change_form_data(client.get(change_url(paper)))
    data["authorships-1-researcher"] = str(lab["grace"].pk)
    assert client.post(change_url(paper), data).status_code == 302
    assert Publication.objects.authored_by(lab["grace"]).get() == paper
    assert not Publication.objects.authored_by(lab["ada"]).exists()


def test_a_member_unlinking_themselves_stays_unlinked(client, lab):
    ada = lab["ada"]
    paper = make_publication(authors=[lab["grace"], ada])
    client.force_login(ada.user)
    data = change_form_data(client.get(change_url(paper)))
    data["authorships-1-researcher"] = ""
    assert client.post(change_url(paper), data).status_code == 302
    assert not Publication.objects.authored_by(ada).exists()
    client.force_login(lab["grace"].user)
    save_unchanged(client, paper)
    client.force_login(lab["editor"])
    save_unchanged(client, paper)
    assert not Publication.objects.authored_by(ada).exists()
    assert paper.authorships.get(name="Ada Lovelace").link_declined


def test_a_member_removing_their_row_is_not_added_back_as_last_author(client, lab):
    ada = lab["ada"]
    paper = make_publication(authors=[ada, lab["grace"]])
    client.force_login(ada.user)
    data = change_form_data(client.get(change_url(paper)))
    data["authorships-0-DELETE"] = "on"
    assert client.post(change_url(paper), data).status_code == 302
    assert list(Authorship.objects.filter(publication=paper).values_list("name", flat=True)) == [
        "Grace Hopper"
    ]


def test_a_member_cannot_take_another_member_off_a_paper_by_unlinking(client, lab):
    paper = make_publication(authors=[lab["ada"], lab["grace"]])
    client.force_login(lab["ada"].user)
    data = change_form_data(client.get(change_url(paper)))
    data["authorships-1-researcher"] = ""
    response = client.post(change_url(paper), data)
    assert response.status_code == 200
    assert "linked to another member" in response.content.decode()
    assert Publication.objects.authored_by(lab["grace"]).get() == paper


def post_edit(client, paper, changes: dict):
    """Post the paper's change page as shown, with `changes` to its fields."""
    return client.post(change_url(paper), change_form_data(client.get(change_url(paper))) | changes)


def test_a_member_cannot_delete_the_author_row_linked_to_another_member(client, lab):
    paper = make_publication(authors=[lab["ada"], lab["grace"]])
    client.force_login(lab["ada"].user)
    response = post_edit(client, paper, {"authorships-1-DELETE": "on"})
    assert response.status_code == 200
    assert "linked to another member, Grace Hopper" in response.content.decode()
    assert Publication.objects.authored_by(lab["grace"]).get() == paper


def test_a_member_cannot_rename_the_author_row_linked_to_another_member(client, lab):
    paper = make_publication(authors=[lab["ada"], lab["grace"]])
    client.force_login(lab["ada"].user)
    response = post_edit(client, paper, {"authorships-1-name": "Someone Else"})
    assert response.status_code == 200
    assert "only they, or an editor, can change this row" in response.content.decode()
    assert paper.authorships.get(researcher=lab["grace"]).name == "Grace Hopper"
    # Her own row, the order and the unlinked rows stay Ada's to change.
    paper = make_publication(authors=[lab["grace"], "Outsider", lab["ada"]])
    changes = {
        "authorships-0-position": "3",
        "authorships-1-DELETE": "on",
        "authorships-2-name": "Ada King",
        "authorships-2-position": "1",
    }
    response = post_edit(client, paper, changes)
    assert response.status_code == 302, response.context and response.context["errors"]
    rows = paper.authorships.order_by("position").values_list("name", "researcher__profile")
    assert list(rows) == [("Ada King", lab["ada"].pk), ("Grace Hopper", lab["grace"].pk)]


def test_a_member_cannot_unlink_rename_or_delete_a_row_linked_to_an_external_person(client, lab):
    paper = make_publication(authors=[lab["ada"], "Xin Jin"])
    xin = make_external(name="Xin Jin")  # claims the row printed with its name
    client.force_login(lab["ada"].user)
    for change in ({"authorships-1-researcher": ""}, {"authorships-1-name": "X. Jinn"}):
        response = post_edit(client, paper, change)
        assert response.status_code == 200
        assert "linked to the external person Xin Jin" in response.content.decode()
    assert post_edit(client, paper, {"authorships-1-DELETE": "on"}).status_code == 200
    assert paper.authorships.get(position=2).external == xin


def test_a_members_list_is_titled_my_papers_and_filters_by_their_own_venues(client, lab):
    ada, grace = lab["ada"], lab["grace"]
    make_publication(title="Ada's", authors=[ada], venue=make_venue(short_name="OSDI"))
    make_publication(title="Grace's", authors=[grace], venue=make_venue(short_name="SOSP"))
    client.force_login(ada.user)
    page = client.get(reverse("admin:publications_publication_changelist")).content.decode()
    assert "<h1>My papers</h1>" in page and "Select publication to change" not in page
    assert "OSDI" in page and "SOSP" not in page
    client.force_login(lab["editor"])
    page = client.get(reverse("admin:publications_publication_changelist")).content.decode()
    assert "<h1>Select publication to change</h1>" in page and "SOSP" in page
