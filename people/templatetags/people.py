from django import template

from directory.structured_data import json_ld_script
from people.avatars import avatar_colour
from people.structured_data import profile

register = template.Library()


@register.simple_tag(takes_context=True)
def person_json_ld(context, person):
    return json_ld_script(profile(person, request=context["request"]))


@register.inclusion_tag("includes/avatar.html")
def avatar(person, *, large: bool = False):
    """The person's photo, or their initials on a colour of their own."""
    return {
        "person": person,
        "large": large,
        "colour": "" if person.photo else avatar_colour(number=person.pk, name=person.name),
    }
