from django import template

from base.renditions import sources
from base.site_cache import kept_block
from base.structured_data import json_ld_script
from people.avatars import avatar_colours
from people.photos import PORTRAIT_SIZES
from people.structured_data import profile

register = template.Library()


@register.simple_tag(takes_context=True)
def person_json_ld(context, person):
    return json_ld_script(profile(person, request=context["request"]))


@register.inclusion_tag("includes/avatar.html")
def avatar(person, *, large: bool = False):
    """The person's photo in the sizes and formats the browser picks from (people/photos.py),
    or their initials on a pale tint of their own."""
    use = "profile" if large else "card"
    size = PORTRAIT_SIZES[use]
    context = {"person": person, "large": large, "size": size}
    if not person.photo:
        context["tint"], context["ink"] = avatar_colours(number=person.pk, name=person.name)
        return context
    found = sources(person.photo.storage, (person.photo_renditions or {}).get(use, {}), size)
    # The JPEG is the <img> itself; the others are <source>s before it.
    context["fallback"] = found.pop() if found and found[-1]["type"] == "image/jpeg" else None
    if context["fallback"]:
        context["src"] = context["fallback"]["src"]
    context["sources"] = found
    return context


@register.simple_tag
def person_card(person, role_heading: str = "", role_slug: str = ""):
    """`person`'s card (includes/person_card.html), kept until a change of their row: a list
    of people rendered anew after an edit of a paper renders none of its cards again. The
    other rows a card shows (their name's researcher row, links, role, alumni record) name no
    narrower scope, so any write of one of them moves every card."""
    return kept_block(
        "person-card",
        "includes/person_card.html",
        person,
        as_name="person",
        scopes={f"person:{person.pk}"},
        role_heading=role_heading,
        role_slug=role_slug or "",
    )
