"""A kept part of a page follows every row it shows, not only the object of the page: a
paper's page lists other papers (its members' other papers), the creators of its datasets and
the speakers of its talks; a profile names its advisors, students and close collaborators.
An edit of one of those others shows on the page's next request.

These tests commit for real (transaction=True): the change stamp moves when a transaction
commits, as on a live site. The whole-page cache is on (every write moves its stamp), so what
would go stale is a kept part."""

import datetime
import re

import pytest

from base.models import Lab
from people.models import Advising, Collaboration, Person
from tests.factories import make_event, make_person, make_publication
from tests.outputs.conftest import make_output

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def hang():
    # Made here, not by the first request (its making is a write, which moves the stamp).
    Lab.objects.current()
    return make_person(name="Hang Zhu", slug="hang-zhu")


@pytest.fixture
def xin():
    return make_person(name="Xin Jin", slug="xin-jin")


def rename(person: Person, name: str) -> None:
    edit(person, name=name)


def edit(person: Person, **fields) -> None:
    person.refresh_from_db()
    for name, value in fields.items():
        setattr(person, name, value)
    person.save()


def test_a_co_author_of_a_related_paper_unpublished_leaves_the_paper_page(client, hang, xin):
    """Ring is listed under "More by Hang Zhu" on Klotski's page, its members' names linked to
    their profiles; Xin Jin wrote Ring but not Klotski."""
    klotski = make_publication(title="Klotski", slug="klotski", year=2023, authors=[hang])
    make_publication(title="Ring", slug="ring", year=2024, authors=[hang, xin])
    assert 'href="/people/xin-jin/"' in client.get(klotski.get_absolute_url()).text

    edit(xin, is_published=False)

    assert 'href="/people/xin-jin/"' not in client.get(klotski.get_absolute_url()).text


def test_a_dataset_creator_renamed_shows_on_the_paper_page(client, hang, xin):
    """Xin Jin made Klotski's dataset but is no author of Klotski."""
    klotski = make_publication(title="Klotski", slug="klotski", year=2023, authors=[hang])
    make_output(title="Klotski traces", creators=[hang, xin], publications=[klotski])
    assert "<bdi>Xin Jin</bdi>" in client.get(klotski.get_absolute_url()).text

    rename(xin, "Xin Jin-Wang")

    assert "<bdi>Xin Jin-Wang</bdi>" in client.get(klotski.get_absolute_url()).text


def test_a_talks_speaker_renamed_shows_on_the_paper_page(client, hang, xin):
    """Xin Jin presented Klotski in a talk but is no author of it."""
    klotski = make_publication(title="Klotski", slug="klotski", year=2023, authors=[hang])
    talk = make_event(starts_in=-datetime.timedelta(days=30), title="Klotski", speaker=xin)
    talk.publications.add(klotski)
    assert "<bdi>Xin Jin</bdi>" in client.get(klotski.get_absolute_url()).text

    rename(xin, "Xin Jin-Wang")

    assert "<bdi>Xin Jin-Wang</bdi>" in client.get(klotski.get_absolute_url()).text


def test_an_advisor_renamed_shows_on_the_students_profile(client, hang, xin):
    Advising.objects.create(advisee=hang, advisor=xin, position=1)
    assert "Xin Jin" in client.get(hang.get_absolute_url()).text

    rename(xin, "Xin Jin-Wang")

    assert "Xin Jin-Wang" in client.get(hang.get_absolute_url()).text


def test_a_student_unpublished_leaves_the_advisors_profile(client, hang, xin):
    Advising.objects.create(advisee=hang, advisor=xin, position=1)
    assert 'href="/people/hang-zhu/"' in client.get(xin.get_absolute_url()).text

    edit(hang, is_published=False)

    assert 'href="/people/hang-zhu/"' not in client.get(xin.get_absolute_url()).text


def test_a_close_collaborator_renamed_shows_on_the_profile(client, hang, xin):
    Collaboration.objects.create(person=hang, collaborator=xin, position=1)
    assert "Xin Jin" in client.get(hang.get_absolute_url()).text

    rename(xin, "Xin Jin-Wang")

    assert "Xin Jin-Wang" in client.get(hang.get_absolute_url()).text


def section(page: str, heading_id: str) -> str:
    found = re.search(rf'<section[^>]*aria-labelledby="{heading_id}">.*?</section>', page, re.S)
    assert found, heading_id
    return found.group(0)


def test_a_speaker_and_creator_whose_only_paper_it_is_renamed_shows_in_its_talks_and_data(
    client, hang
):
    """Hang Zhu wrote Klotski and nothing else, presented it and made its dataset: renaming
    Hang names Klotski's scope and Hang's own in one change, which is no edit of Klotski alone
    (the talks and datasets kept apart from Klotski's own edits kept the old name)."""
    klotski = make_publication(title="Klotski", slug="klotski", year=2023, authors=[hang])
    talk = make_event(starts_in=-datetime.timedelta(days=30), title="Klotski", speaker=hang)
    talk.publications.add(klotski)
    make_output(title="Klotski traces", creators=[hang], publications=[klotski])
    page = client.get(klotski.get_absolute_url()).text
    assert "Hang Zhu" in section(page, "talks") and "Hang Zhu" in section(page, "outputs")

    rename(hang, "Hang Li")

    page = client.get(klotski.get_absolute_url()).text
    assert "Hang Li" in section(page, "talks")
    assert "Hang Li" in section(page, "outputs")
