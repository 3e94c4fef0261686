"""External people are researchers without a profile (issue 25, stage 2): one table of humans,
so one rule for addresses and identifiers, and their history is the researchers'."""

import pytest
from django.core.exceptions import ValidationError

from people.models import ExternalPerson, Researcher
from people.services import unique_slug
from tests.department import make_external
from tests.factories import make_person

pytestmark = pytest.mark.django_db


def test_an_external_person_is_a_researcher_without_a_profile_and_lists_no_member():
    member = make_person(name="Ada Lovelace", slug="ada-lovelace")
    outsider = make_external(name="Xin Jin", slug="xin-jin")
    assert Researcher.objects.get(pk=outsider.pk).slug == "xin-jin"
    assert list(ExternalPerson.objects.all()) == [outsider]
    assert member.pk not in ExternalPerson.objects.values_list("pk", flat=True)


def test_saving_and_deleting_an_external_person_leaves_history_rows_though_it_is_a_proxy():
    """simple-history connects its receivers for the concrete model only (its issue #544)."""
    outsider = make_external(name="Xin Jin", slug="xin-jin")
    outsider.affiliation = "Peking University"
    outsider.save()
    pk = outsider.pk
    outsider.delete()
    history = Researcher.history.filter(id=pk).order_by("history_date")
    assert list(history.values_list("history_type", "affiliation")) == [
        ("+", ""),
        ("~", "Peking University"),
        ("-", "Peking University"),
    ]


def test_a_member_and_an_external_person_cannot_share_an_orcid_or_a_dblp_id():
    make_person(orcid="0000-0002-1825-0097", dblp="84/2427")
    for identifier in ({"orcid": "0000-0002-1825-0097"}, {"dblp": "84/2427"}):
        outsider = ExternalPerson(name="Xin Jin", slug="xin-jin", **identifier)
        with pytest.raises(ValidationError, match="Another person has this"):
            outsider.full_clean()


def test_a_new_external_persons_address_is_numbered_past_a_members():
    make_person(name="Xin Jin", slug="xin-jin")
    assert unique_slug("Xin Jin") == "xin-jin-2"
    with pytest.raises(ValidationError, match="Web address"):
        ExternalPerson(name="Xin Jin", slug="xin-jin").full_clean()
