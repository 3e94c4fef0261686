"""Members' lists kept current: a check of a member's ORCID record and dblp page (against
recorded responses served on 127.0.0.1) suggests the works the site does not have; the member
or an editor adds one (the review's import, the member linked) or sets it aside for good; a
service answering slowly, with garbage or with thousands of works is a sentence on the
member's check, never a crash."""

import pytest
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from people.models import PersonLink
from publications.models import Publication, Suggestion, WorkCheck
from publications.suggestions import checking
from publications.suggestions.checking import check_member
from tests.factories import make_person, make_publication
from tests.identifier_service import ORCID
from tests.worker import run_worker

pytestmark = pytest.mark.django_db

CHANGELIST = reverse("admin:publications_suggestion_changelist")
# A valid ORCID iD (ORCID's documentation's example) whose record answers garbage.
GARBLED_ORCID = "0000-0001-5109-3700"
ORCID_WORKS = {"Flow Tables That Fit", "Packet Scheduling at Line Rate: A Programmable Approach"}
DBLP_WORKS = {
    "Ring: Rebalancing Load with No Coordination",
    "Tail Latency Without Tears",
    "Networks Are Computers",
}


def member(django_user_model, username: str, **fields):
    login = django_user_model.objects.create_user(username, password="pw", is_staff=True)
    login.groups.add(Group.objects.get(name="Member logins"))
    return make_person(slug=username, user=login, **fields)


def with_dblp(person, pid: str = "z/HangZhu"):
    PersonLink.objects.create(
        person=person, position=1, kind=PersonLink.Kind.DBLP, url=f"https://dblp.org/pid/{pid}.html"
    )
    return person


def suggested(person) -> set[str]:
    return set(Suggestion.objects.filter(person=person).values_list("title", flat=True))


def accept_url(suggestion) -> str:
    return reverse("admin:publications_suggestion_accept", args=[suggestion.pk])


def reject_url(suggestion) -> str:
    return reverse("admin:publications_suggestion_reject", args=[suggestion.pk])


def test_a_check_suggests_the_members_works_the_site_lacks_and_none_it_has(services):
    hang = with_dblp(make_person(name="Hang Zhu", orcid=ORCID))
    make_publication(title="Networks are computers", year=2023, doi="10.1145/3611111")
    make_publication(title="Flow tables that fit!", year=2022)  # the same folded title
    check = check_member(hang.pk)
    assert suggested(hang) == (ORCID_WORKS | DBLP_WORKS) - {
        "Networks Are Computers",
        "Flow Tables That Fit",
    }
    assert (check.state, check.works_read, check.suggested) == ("done", 5, 3)
    tail = Suggestion.objects.get(title="Tail Latency Without Tears")
    assert (tail.source, tail.arxiv_id, tail.authors) == ("dblp", "2402.05555", "Hang Zhu")
    # Nothing new the second time: the waiting ones are not suggested twice.
    again = check_member(hang.pk)
    assert (again.suggested, Suggestion.objects.count()) == (0, 3)


def test_the_command_queues_a_check_per_member_once_per_interval_and_the_worker_runs_it(
    services,
):
    hang = make_person(name="Hang Zhu", orcid=ORCID)
    with_dblp(make_person(name="Ada Lovelace"), "l/AdaLovelace")  # no such page: a problem
    make_person(name="Grace Hopper")  # neither: not checked
    call_command("check_new_works")
    assert set(WorkCheck.objects.values_list("state", flat=True)) == {"queued"}
    assert WorkCheck.objects.count() == 2
    run_worker()
    assert suggested(hang) == ORCID_WORKS
    ada = WorkCheck.objects.get(person__name="Ada Lovelace")
    assert ada.state == "failed" and "no dblp person key “l/AdaLovelace” was found" in ada.message
    call_command("check_new_works")  # checked within WORKS_CHECK_INTERVAL_HOURS: not again
    run_worker()
    assert WorkCheck.objects.filter(state="queued").count() == 0


def test_a_member_adds_a_suggested_work_and_is_linked_to_it(services, client, django_user_model):
    # "H. Zhu" is not how dblp prints the name: the review links nobody, accepting links them.
    hang = with_dblp(member(django_user_model, "hang", name="H. Zhu"))
    check_member(hang.pk)
    tail = Suggestion.objects.get(title="Tail Latency Without Tears")
    client.force_login(hang.user)
    my_papers = client.get(reverse("admin:publications_publication_changelist")).content.decode()
    assert f'href="{CHANGELIST}">Suggested works</a>' in my_papers
    page = client.get(CHANGELIST).content.decode()
    assert accept_url(tail) in page and reject_url(tail) in page

    response = client.post(accept_url(tail), follow=True)
    paper = Publication.objects.get(title="Tail Latency Without Tears")
    assert [(row.name, row.person) for row in paper.authorships.all()] == [("Hang Zhu", hang)]
    assert paper.links.get().url == "https://arxiv.org/abs/2402.05555"
    assert "Added “Tail Latency Without Tears”." in response.content.decode()
    # The history names the service that suggested it, not BibTeX.
    assert paper.history.earliest().history_change_reason == (
        f"Imported from {tail.source}: a suggested work, accepted"
    )
    assert tail.source == "dblp"
    tail.refresh_from_db()
    assert (tail.state, tail.publication, tail.decided_by) == ("accepted", paper, hang.user)
    # Accepted is decided: a second click adds nothing.
    again = client.post(accept_url(tail), follow=True).content.decode()
    assert "was decided already" in again and Publication.objects.count() == 1


def test_a_rejected_work_is_remembered_and_never_suggested_again(
    services, client, django_user_model
):
    hang = member(django_user_model, "hang", name="Hang Zhu", orcid=ORCID)
    check_member(hang.pk)
    flow = Suggestion.objects.get(title="Flow Tables That Fit")
    client.force_login(hang.user)
    response = client.post(reject_url(flow), follow=True).content.decode()
    assert "will not be suggested again" in response
    assert not Publication.objects.exists()
    check = check_member(hang.pk)
    assert check.suggested == 0
    assert list(Suggestion.objects.filter(title="Flow Tables That Fit").values_list("state")) == [
        ("rejected",)
    ]
    # Listed only when staff ask for the decided ones.
    assert accept_url(flow) not in client.get(CHANGELIST).content.decode()
    assert "Flow Tables That Fit" in client.get(CHANGELIST + "?state=rejected").content.decode()


def test_a_member_sees_and_decides_only_their_own_suggestions_and_an_editor_everyones(
    services, editor_client, django_user_model
):
    hang = member(django_user_model, "hang", name="Hang Zhu", orcid=ORCID)
    ada = with_dblp(member(django_user_model, "ada", name="Ada Lovelace"))
    check_member(hang.pk)
    check_member(ada.pk)
    theirs = Suggestion.objects.filter(person=ada).first()
    client = Client()
    client.force_login(hang.user)
    page = client.get(CHANGELIST).content.decode()
    assert "Flow Tables That Fit" in page and theirs.title not in page
    refused = client.post(accept_url(theirs), follow=True).content.decode()
    assert "not yours to decide" in refused and not Publication.objects.exists()
    everyone = editor_client.get(CHANGELIST).content.decode()
    assert "Flow Tables That Fit" in everyone and theirs.title in everyone
    editor_client.post(accept_url(theirs))
    assert Publication.objects.filter(title=theirs.title).exists()


def test_a_garbled_answer_is_a_failed_check_with_a_sentence(services):
    services.answers[f"/orcid/{GARBLED_ORCID}/works"] = b"<html><body>Service Unavailable"
    person = make_person(name="Garbled", orcid=GARBLED_ORCID)
    check = check_member(person.pk)
    assert check.state == "failed"
    assert "ORCID's answer is not valid JSON" in check.message
    assert not Suggestion.objects.exists()


def test_an_answer_the_readers_do_not_expect_is_a_failed_check_not_a_crash(services):
    services.answers[f"/orcid/{GARBLED_ORCID}/works"] = b'{"group": [{"work-summary": 7}]}'
    services.answers[f"/orcid/{GARBLED_ORCID}/works/"] = b"{}"
    person = make_person(name="Garbled", orcid=GARBLED_ORCID)
    check = check_member(person.pk)
    assert check.state in ("failed", "done")
    assert check.checked_at is not None and not Suggestion.objects.exists()


def test_a_slow_service_is_given_up_on_and_said(services, settings):
    settings.IDENTIFIER_FETCH_TIMEOUT_SECONDS = 1
    settings.IDENTIFIER_SERVICE_URLS = {**services.urls(), "orcid": f"{services.url}/slow"}
    person = make_person(name="Slow", orcid=ORCID)
    check = check_member(person.pk)
    assert check.state == "failed"
    # The socket's time-out, or the whole request's, whichever the trickle meets first.
    assert check.message.startswith("127.0.0.1 ")
    assert "timed out" in check.message or "took longer than 1 seconds" in check.message


def test_a_site_that_does_not_fetch_says_so_on_the_check(settings):
    settings.IDENTIFIER_FETCHING = False
    person = make_person(name="Offline", orcid=ORCID)
    check = check_member(person.pk)
    assert check.state == "failed" and "IDENTIFIER_FETCHING is off" in check.message


def test_a_member_with_thousands_of_works_gets_the_first_ones_and_a_sentence(services):
    records = "".join(
        f'<r><article key="journals/x/Many{number}" mdate="2024-01-01">'
        f"<author>Many Works</author><title>Result number {number}.</title>"
        f"<journal>J. Many</journal><year>2020</year></article></r>"
        for number in range(5000)
    )
    services.answers["/dblp/pid/m/Many.xml"] = (
        f'<?xml version="1.0"?><dblpperson name="Many Works" pid="m/Many" n="5000">{records}'
        "</dblpperson>"
    ).encode()
    person = with_dblp(make_person(name="Many Works"), "m/Many")
    check = check_member(person.pk)
    assert (check.state, check.works_read, check.suggested) == ("done", 5000, checking.MAX_WAITING)
    assert "4,800 more new works wait" in check.message
