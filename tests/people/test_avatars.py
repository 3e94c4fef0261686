"""Generated avatars: a colour per person, at most two letters whatever the name."""

import re

import pytest

from base.colours import contrast, parse_hex
from people.avatars import avatar_colours, initials_of
from people.models import Person
from tests.factories import make_group, make_person

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("name", "initials"),
    [("ﬁona Lee", "FL"), ("ŉoah Zhu", "NZ"), ("ßara Ng", "SN"), ("Lee ﬁ", "LF"), ("ǆ", "D")],
)
def test_initials_stay_two_letters_for_ligatures_and_letters_that_upper_case_to_two(name, initials):
    assert initials_of(name) == initials


def test_names_starting_with_a_ligature_do_not_break_any_page(client):
    """Validation refuses such names now; rows stored before it must still render."""
    group = make_group()
    fiona = make_person(name="Fiona Lee", slug="fiona", role_group=group)
    noah = make_person(name="Noah Fisher", slug="noah", role_group=group)
    # QuerySet.update skips the save check, as an older version of the site did.
    Person.objects.filter(pk=fiona.pk).update(name="ﬁona Lee")
    Person.objects.filter(pk=noah.pk).update(name="ŉoah ﬁsher")
    for url in ["/", "/people/", fiona.get_absolute_url(), "/people/noah/", "/search/?q=lee"]:
        response = client.get(url)
        assert response.status_code == 200, url
    assert ">FL</text>" in client.get("/people/").content.decode()


def avatar_fills(html: str) -> list[str]:
    return re.findall(
        r'<svg class="avatar avatar--initials[^>]*><rect [^>]*fill="(#[0-9a-f]{6})"', html
    )


def test_people_with_the_same_initials_get_different_colours(client):
    group = make_group()
    for name, slug in [("Hang Zhu", "hang"), ("Haoran Zhang", "haoran"), ("Hao Zhang", "hao")]:
        make_person(name=name, slug=slug, role_group=group)
    fills = avatar_fills(client.get("/people/").content.decode())
    assert len(fills) == 3
    assert len(set(fills)) == 3


def test_distinct_people_get_distinct_pale_tints_their_initials_read_on():
    colours = [avatar_colours(number=number, name="") for number in range(1, 301)]
    assert len(set(colours)) == len(colours)
    for tint, ink in colours:
        # Quiet: a pale tint, not a saturated tile.
        assert contrast(parse_hex(tint), (1.0, 1.0, 1.0)) < 1.6, tint
        assert contrast(parse_hex(ink), parse_hex(tint)) >= 4.5, (tint, ink)
