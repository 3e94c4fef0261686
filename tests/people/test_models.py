import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError

from base.partial_dates import PartialDate
from people.models import Education, Person
from people.names import normalize_name
from tests.factories import make_group, make_person

pytestmark = pytest.mark.django_db


def test_profile_url_uses_the_slug():
    assert make_person(slug="hang-zhu").get_absolute_url() == "/people/hang-zhu/"


def test_a_photo_without_alt_text_is_refused():
    person = make_person()
    person.photo = "people/portrait.jpg"
    with pytest.raises(ValidationError, match="Describe the photo"):
        person.full_clean()
    with pytest.raises(IntegrityError):
        person.save()


def test_two_entries_of_one_kind_cannot_share_a_position():
    person = make_person()
    Education.objects.create(person=person, position=1, institution="A")
    with pytest.raises(IntegrityError):
        Education.objects.create(person=person, position=1, institution="B")


def test_education_period_keeps_the_precision_of_its_dates():
    entry = Education.objects.create(
        person=make_person(), position=1, institution="SJTU", start="2023-09", is_current=True
    )
    entry.refresh_from_db()
    assert entry.start == PartialDate(2023, 9)
    assert entry.period == "Sep 2023 – Present"


def test_lists_are_read_one_item_per_line_ignoring_blank_lines():
    person = make_person(
        affiliations="Shanghai Jiao Tong University\n\n NVIDIA Research \n",
        research_interests="Machine Learning Systems\nDistributed Systems",
    )
    assert person.affiliation_list == ["Shanghai Jiao Tong University", "NVIDIA Research"]
    assert person.interest_list == ["Machine Learning Systems", "Distributed Systems"]


def test_alumni_groups_sort_after_current_groups():
    alumni = make_group(name="Alumni", position=0, is_alumni=True)
    students = make_group(name="PhD Students", position=5)
    faculty = make_group(name="Faculty", position=1)
    assert list(type(alumni).objects.all()) == [faculty, students, alumni]


@pytest.mark.parametrize(
    ("printed", "normalized"),
    [
        ("Hang Zhu", "hang zhu"),
        ("  hang   ZHU* ", "hang zhu"),
        ("Wei-Ying Ma", "wei ying ma"),
        ("Dan R. K. Ports", "dan r k ports"),
        ("José Müller", "jose muller"),
    ],
)
def test_names_are_compared_without_case_accents_or_marks(printed, normalized):
    assert normalize_name(printed) == normalized


def test_name_keys_hold_the_name_and_every_alias():
    person = make_person(name="Hang Zhu", aliases="H. Zhu\nZhu Hang")
    assert person.name_keys() == {"hang zhu", "h zhu", "zhu hang"}


def test_person_queryset_published_hides_drafts():
    shown = make_person()
    make_person(is_published=False)
    assert list(Person.objects.published()) == [shown]
