from django import template

from directory.structured_data import json_ld_script
from people.structured_data import profile

register = template.Library()


@register.simple_tag(takes_context=True)
def person_json_ld(context, person):
    return json_ld_script(profile(person, request=context["request"]))
