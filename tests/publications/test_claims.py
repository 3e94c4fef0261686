"""The claim and correction queue: a member says "This is me" or "Not me" on a paper's author
row, a visitor sends a correction without an account; editors accept or reject each in one
list, and every decision is in the paper's history."""

import re

import pytest
from django.urls import reverse

from publications.claims import forms as claim_forms
from publications.models import Claim, Publication
from tests.factories import make_publication

pytestmark = pytest.mark.django_db


@pytest.fixture
def lab(member_lab):
    return member_lab


def claims_url(paper) -> str:
    return reverse("publications:claims", kwargs={"slug": paper.slug})


def claim(client, paper, name, kind="me"):
    row = paper.authorships.get(name=name)
    return client.post(claims_url(paper), {"action": "claim", "author": row.pk, "kind": kind})


def decide(client, claim_row, answer):
    return client.post(
        reverse(f"admin:publications_claim_{answer}", args=[claim_row.pk]), follow=True
    )


def correct(client, paper, address="192.0.2.1", **fields):
    data = {"action": "correction", "message": "The venue is wrong: it was OSDI.", **fields}
    return client.post(claims_url(paper), data, REMOTE_ADDR=address)


def test_the_papers_page_links_to_its_claim_and_correction_page(client):
    paper = make_publication(authors=["A. Lovelace"])
    page = client.get(paper.get_absolute_url()).content.decode()
    assert f'href="{claims_url(paper)}"' in page


def test_a_member_says_this_is_me_and_the_row_waits_for_an_editor(client, lab):
    paper = make_publication(authors=["A. Lovelace", "Charles Babbage"])
    client.force_login(lab["ada"].user)
    response = claim(client, paper, "A. Lovelace")
    assert response.status_code == 200
    assert "waits for an editor" in response.content.decode()
    (waiting,) = Claim.objects.waiting()
    assert (waiting.kind, waiting.person, waiting.authorship.name) == (
        "me",
        lab["ada"],
        "A. Lovelace",
    )
    assert not Publication.objects.authored_by(lab["ada"]).exists()  # not before an editor says so
    claim(client, paper, "A. Lovelace")  # a second click waits as the first
    assert Claim.objects.count() == 1


def test_an_editor_accepts_a_claim_and_it_is_linked_with_its_history(client, lab):
    paper = make_publication(authors=["A. Lovelace"])
    client.force_login(lab["ada"].user)
    claim(client, paper, "A. Lovelace")
    client.force_login(lab["editor"])
    queue = client.get(reverse("admin:publications_claim_changelist")).content.decode()
    assert "This is me for the author “A. Lovelace”" in queue
    response = decide(client, Claim.objects.get(), "accept")
    reason = "Claimed by Ada Lovelace as “A. Lovelace”, accepted by Edith Editor"
    assert reason in response.content.decode()
    assert Publication.objects.authored_by(lab["ada"]).get() == paper
    assert paper.history.first().history_change_reason == reason
    assert paper.history.first().history_user == lab["editor"]
    assert paper.authorships.get().history.first().history_change_reason == reason
    # The member sees how it was answered.
    client.force_login(lab["ada"].user)
    page = client.get(claims_url(paper)).content.decode()
    assert re.search(r"This is me: <bdi>A. Lovelace</bdi> — <strong>Accepted</strong>", page)


def test_an_editor_accepts_not_me_and_the_row_stays_off_the_member(client, lab):
    paper = make_publication(authors=[lab["ada"]])
    client.force_login(lab["ada"].user)
    assert claim(client, paper, "Ada Lovelace", kind="not-me").status_code == 200
    client.force_login(lab["editor"])
    decide(client, Claim.objects.get(), "accept")
    row = paper.authorships.get()
    assert (row.person, row.link_declined) == (None, True)
    assert (
        "said “Ada Lovelace” is not them, accepted by" in row.history.first().history_change_reason
    )


def test_a_rejected_claim_links_nothing_and_is_in_the_history(client, lab):
    paper = make_publication(authors=["A. Lovelace"])
    client.force_login(lab["ada"].user)
    claim(client, paper, "A. Lovelace")
    client.force_login(lab["editor"])
    decide(client, Claim.objects.get(), "reject")
    assert not Publication.objects.authored_by(lab["ada"]).exists()
    assert Claim.objects.get().state == Claim.State.REJECTED
    assert paper.history.first().history_change_reason.endswith("rejected by Edith Editor")
    again = decide(client, Claim.objects.get(), "accept")
    assert "This was decided already" in again.content.decode()
    assert not Publication.objects.authored_by(lab["ada"]).exists()


def test_a_member_cannot_claim_a_row_linked_to_another_member_nor_disown_one_not_theirs(
    client, lab
):
    paper = make_publication(authors=[lab["grace"], "Charles Babbage"])
    client.force_login(lab["ada"].user)
    response = claim(client, paper, "Grace Hopper")
    assert response.status_code == 400
    assert "is linked to another member" in response.content.decode()
    response = claim(client, paper, "Charles Babbage", kind="not-me")
    assert response.status_code == 400
    assert "is not linked to you" in response.content.decode()
    assert not Claim.objects.exists()


def test_a_visitor_cannot_claim_and_a_member_cannot_decide(client, lab):
    paper = make_publication(authors=["A. Lovelace"])
    response = claim(client, paper, "A. Lovelace")
    assert response.status_code == 403
    assert "Sign in with your member login" in response.content.decode()
    client.force_login(lab["ada"].user)
    claim(client, paper, "A. Lovelace")
    assert decide(client, Claim.objects.get(), "accept").status_code == 403
    assert not Publication.objects.authored_by(lab["ada"]).exists()


@pytest.mark.parametrize(
    "data",
    [
        {"action": "claim", "author": "abc", "kind": "me"},
        {"action": "claim", "author": "999999", "kind": "me"},
        {"action": "claim", "kind": "maybe"},
        {"action": "claim"},
        {"action": "correction", "message": ""},
        {"action": "correction", "message": "bad\x00byte"},
        {"action": "correction", "message": "x" * 5000},
        {"action": "correction", "message": "ok", "email": "not an email"},
    ],
)
def test_bad_input_is_refused_with_a_sentence_never_a_500(client, lab, data):
    paper = make_publication(authors=["A. Lovelace"])
    client.force_login(lab["ada"].user)
    response = client.post(claims_url(paper), data)
    assert response.status_code == 400
    assert 'role="alert"' in response.content.decode() or "errorlist" in response.content.decode()
    assert not Claim.objects.exists()


def test_a_visitor_sends_a_correction_and_editors_see_it_in_the_queue(client, lab):
    paper = make_publication(authors=["A. Lovelace"])
    response = correct(client, paper, email="reader@example.org")
    assert response.status_code == 200
    assert "Thank you: your correction waits" in response.content.decode()
    (sent,) = Claim.objects.all()
    assert (sent.kind, sent.publication, sent.email) == ("correction", paper, "reader@example.org")
    client.force_login(lab["editor"])
    queue = client.get(reverse("admin:publications_claim_changelist")).content.decode()
    assert "Correction: The venue is wrong: it was OSDI." in queue
    assert "A visitor (reader@example.org)" in queue
    decide(client, sent, "accept")
    assert paper.history.first().history_change_reason == (
        "Correction from a visitor accepted by Edith Editor"
    )


def test_corrections_are_limited_per_address_with_a_clear_message(client, monkeypatch):
    monkeypatch.setattr(claim_forms, "CORRECTIONS_PER_HOUR", 2)
    paper = make_publication(authors=["A. Lovelace"])
    assert correct(client, paper).status_code == 200
    assert correct(client, paper).status_code == 200
    over = correct(client, paper)
    assert over.status_code == 429
    assert "sent 2 corrections in the last hour" in over.content.decode()
    assert correct(client, paper, address="198.51.100.7").status_code == 200  # another address
    assert Claim.objects.count() == 3


def test_a_filled_trap_field_is_thanked_and_dropped(client):
    paper = make_publication(authors=["A. Lovelace"])
    response = correct(client, paper, website="http://spam.example")
    assert "Thank you" in response.content.decode()
    assert not Claim.objects.exists()


def test_the_page_is_never_kept_needs_its_form_token_and_keeps_the_strict_policy(client):
    paper = make_publication(authors=["A. Lovelace"])
    response = client.get(claims_url(paper))
    assert "no-cache" in response["Cache-Control"]
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "style-src 'self'" in policy
    page = response.content.decode()
    assert " style=" not in page and not re.search(r"<script(?![^>]*\bsrc=)", page)
    assert page.count('name="csrfmiddlewaretoken"') == 1  # the correction form (no member)
    strict = client.__class__(enforce_csrf_checks=True)
    refused = strict.post(claims_url(paper), {"action": "correction", "message": "Wrong year."})
    assert refused.status_code == 403
    assert not Claim.objects.exists()


def test_the_editors_index_says_how_many_claims_and_corrections_wait(client, lab):
    paper = make_publication(authors=["A. Lovelace"])
    correct(client, paper)
    correct(client, paper)
    client.force_login(lab["editor"])
    index = client.get(reverse("admin:index")).content.decode()
    assert "2 claims and corrections to decide" in index


def test_the_member_is_emailed_in_plain_sentences_when_their_claim_is_decided(
    client, lab, mailoutbox, django_capture_on_commit_callbacks
):
    lab["ada"].email = "ada@example.org"
    lab["ada"].save()
    accepted = make_publication(title="Notes on the Engine", authors=["A. Lovelace"])
    rejected = make_publication(title="Another Paper", authors=["A. A. Lovelace"])
    client.force_login(lab["ada"].user)
    claim(client, accepted, "A. Lovelace")
    claim(client, rejected, "A. A. Lovelace")
    client.force_login(lab["editor"])
    with django_capture_on_commit_callbacks(execute=True):
        decide(client, Claim.objects.get(publication=accepted), "accept")
        decide(client, Claim.objects.get(publication=rejected), "reject")
    yes, no = mailoutbox
    assert yes.to == no.to == ["ada@example.org"]
    assert yes.subject == "Your claim on “Notes on the Engine” was accepted"
    assert yes.body == (
        "Hello Ada Lovelace,\n\nAn editor accepted that you are the author “A. Lovelace” of "
        "“Notes on the Engine”. The paper is now on your profile.\n"
    )
    assert no.subject == "Your claim on “Another Paper” was not accepted"
    assert "An editor did not accept that you are the author “A. A. Lovelace”" in no.body
    assert "Nothing was changed." in no.body


def test_a_visitor_is_emailed_about_their_correction_only_if_they_left_an_address(
    client, lab, mailoutbox, django_capture_on_commit_callbacks
):
    paper = make_publication(title="Notes on the Engine", authors=["A. Lovelace"])
    correct(client, paper, email="reader@example.org")
    correct(client, paper, address="192.0.2.2")
    client.force_login(lab["editor"])
    with django_capture_on_commit_callbacks(execute=True):
        for waiting in Claim.objects.order_by("pk"):
            decide(client, waiting, "accept")
    (told,) = mailoutbox
    assert told.to == ["reader@example.org"]
    assert told.subject == "Your correction to “Notes on the Engine”"
    assert "An editor accepted your correction" in told.body
