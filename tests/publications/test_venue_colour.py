"""A venue's own badge colour (issue 26): refused, with the contrast measured, when white text
would not stand out on it; painted behind the badge of each of its papers otherwise."""

import pytest
from django.core.exceptions import ValidationError
from django.forms import modelform_factory

from publications.admin import VenueForm
from publications.models import Venue
from tests.factories import make_publication, make_venue

pytestmark = pytest.mark.django_db


def test_a_colour_white_text_cannot_be_read_on_is_refused_with_the_ratio_measured():
    venue = make_venue()
    venue.colour = "#f5a300"
    with pytest.raises(ValidationError) as refused:
        venue.full_clean()
    assert refused.value.message_dict["colour"] == [
        "White text on #f5a300 has a contrast of only 2.1:1; a badge needs at least 4.5:1. "
        "Choose a darker colour."
    ]


def test_the_venue_form_says_what_is_wrong_on_the_colour_field():
    form_class = modelform_factory(Venue, form=VenueForm, fields=["short_name", "kind", "colour"])
    form = form_class(data={"short_name": "NSDI", "kind": "conference", "colour": "teal"})
    assert form.errors["colour"] == [
        'Write the colour as # and six hexadecimal digits, e.g. "#7a1f5c".'
    ]


def test_a_dark_enough_colour_is_painted_behind_the_badges_of_its_papers(client):
    venue = make_venue(short_name="NSDI", colour="#0b6b3a")
    paper = make_publication(venue=venue)
    for path in ["/publications/", paper.get_absolute_url()]:
        html = client.get(path).content.decode()
        assert '<rect width="1" height="1" fill="#0b6b3a"/>' in html, path
        assert "venue-badge--own" in html
