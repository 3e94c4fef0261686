"""One ORCID rule wherever an iD comes in: the iD bare or its address on orcid.org (as ORCID, a
CV or a browser's address bar writes it), its check digit verified, stored bare. A profile and an
external person's record took different forms before; so did the imports."""

import pytest
from django.urls import reverse

from base.identifiers import normalize_orcid, validate_orcid
from tests.admin_forms import post_person
from tests.department import make_external
from tests.factories import make_person

pytestmark = pytest.mark.django_db

BARE = "0000-0002-1825-0097"
# How people paste it: ORCID's own address, the old http one, with "www.", a trailing slash,
# the "orcid:" prefix some CVs and BibTeX files print, spaces around.
PASTED = [
    f"https://orcid.org/{BARE}",
    f"http://orcid.org/{BARE}",
    f"https://www.orcid.org/{BARE}",
    f"https://orcid.org/{BARE}/",
    f"orcid.org/{BARE}",
    f"ORCID: {BARE}",
    f" {BARE} ",
]


@pytest.mark.parametrize("pasted", PASTED)
def test_every_way_an_orcid_id_is_pasted_reads_as_the_bare_id(pasted):
    assert normalize_orcid(pasted) == BARE
    validate_orcid(normalize_orcid(pasted))


@pytest.mark.parametrize("pasted", PASTED)
def test_a_profile_and_an_external_persons_record_take_the_same_forms(editor_client, pasted):
    person = make_person()
    response = post_person(editor_client, person, orcid=pasted)
    assert response.status_code == 302, response.context["adminform"].form.errors
    person.refresh_from_db()
    assert person.orcid == BARE
    # One iD names one human, member or outsider: the member gives it up first.
    person.orcid = ""
    person.save()

    record = make_external(name="Xin Jin", slug="xin-jin", orcid="")
    data = {"name": record.name, "slug": record.slug, "orcid": pasted}
    url = reverse("admin:people_externalperson_change", args=[record.pk])
    response = editor_client.post(url, data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    record.refresh_from_db()
    assert record.orcid == BARE


@pytest.mark.parametrize("pasted", PASTED)
def test_a_record_saved_by_code_as_seed_and_loaddata_do_stores_the_same_bare_id(pasted):
    record = make_external(name="Xin Jin", slug="xin-jin", orcid=pasted)
    record.refresh_from_db()
    assert record.orcid == BARE


def test_a_pasted_address_with_a_wrong_check_digit_is_refused_by_its_check_digit(editor_client):
    response = post_person(
        editor_client, make_person(), orcid="https://www.orcid.org/0000-0002-1825-0098/"
    )
    errors = " ".join(response.context["adminform"].form.errors["orcid"])
    assert "check digit" in errors
    assert "at most" not in errors
