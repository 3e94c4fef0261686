"""ORCID iDs on profiles: checked by their check digit, shown, and in the page's JSON-LD."""

import pytest
from django.core.exceptions import ValidationError

from base.identifiers import normalize_orcid, validate_orcid
from people.models import Person
from tests.admin_forms import post_person
from tests.factories import make_person
from tests.page_head import PageHead

# ORCID's own examples: Josiah Carberry's test record, and an iD whose check digit is X.
VALID = ["0000-0002-1825-0097", "0000-0001-5109-3700", "0000-0002-1694-233X"]


@pytest.mark.parametrize("orcid", VALID)
def test_orcid_ids_with_their_right_check_digit_are_accepted(orcid):
    validate_orcid(orcid)


@pytest.mark.parametrize(
    "orcid",
    [
        "0000-0002-1825-0098",  # one digit off: the check digit catches it
        "0000-0002-1852-0097",  # two digits swapped
        "0000-0002-1694-2330",  # X written as 0
        "0000000218250097",  # without the hyphens
        "0000-0002-1825-009",  # too short
        "https://orcid.org/0000-0002-1825-0097",  # the address, unless normalized first
    ],
)
def test_mistyped_orcid_ids_are_refused(orcid):
    with pytest.raises(ValidationError):
        validate_orcid(orcid)


def test_an_address_pasted_from_orcid_is_read_as_the_bare_id():
    assert normalize_orcid(" https://orcid.org/0000-0002-1694-233x ") == "0000-0002-1694-233X"


@pytest.mark.django_db
def test_staff_can_paste_the_orcid_address_and_the_bare_id_is_stored(editor_client):
    person = make_person()
    response = post_person(editor_client, person, orcid="https://orcid.org/0000-0002-1825-0097")
    assert response.status_code == 302, response.context["adminform"].errors
    person.refresh_from_db()
    assert person.orcid == "0000-0002-1825-0097"


@pytest.mark.django_db
def test_a_wrong_check_digit_is_refused_with_a_message_saying_so(editor_client):
    person = make_person()
    response = post_person(editor_client, person, orcid="0000-0002-1825-0098")
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors["orcid"]
    assert "check digit" in " ".join(errors)
    person.refresh_from_db()
    assert person.orcid == ""


@pytest.mark.django_db
def test_two_profiles_cannot_share_an_orcid_id(editor_client):
    make_person(orcid="0000-0002-1825-0097")
    person = make_person()
    response = post_person(editor_client, person, orcid="0000-0002-1825-0097")
    assert response.status_code == 200
    assert "Another person has this ORCID iD" in response.content.decode()


@pytest.mark.django_db
def test_the_profile_links_the_orcid_record_and_says_so_in_its_json_ld(client):
    person = make_person(orcid="0000-0002-1825-0097")
    html = client.get(person.get_absolute_url()).content.decode()
    assert '<a href="https://orcid.org/0000-0002-1825-0097" rel="me noopener">' in html
    (data,) = PageHead(html).json_ld
    assert data["identifier"] == {
        "@type": "PropertyValue",
        "propertyID": "ORCID",
        "value": "0000-0002-1825-0097",
    }
    assert data["sameAs"][0] == "https://orcid.org/0000-0002-1825-0097"


@pytest.mark.django_db
def test_a_profile_without_an_orcid_id_claims_none(client):
    person = make_person()
    html = client.get(person.get_absolute_url()).content.decode()
    assert "orcid.org" not in html
    (data,) = PageHead(html).json_ld
    assert "identifier" not in data
    assert Person.objects.get(pk=person.pk).orcid_url == ""
