"""Tags for what a page tells indexers and link previews: its canonical URL and JSON-LD."""

from django import template

from directory import structured_data

register = template.Library()


@register.simple_tag(takes_context=True)
def canonical_url(context) -> str:
    """This page's address without its query string: filtered or paged views of a list are the
    list, for search engines and link previews."""
    request = context["request"]
    return request.build_absolute_uri(request.path)


@register.simple_tag(takes_context=True)
def absolute_url(context, path: str) -> str:
    return context["request"].build_absolute_uri(path)


@register.simple_tag(takes_context=True)
def publication_json_ld(context, publication):
    request = context["request"]
    return structured_data.json_ld_script(
        structured_data.scholarly_article(publication, request=request)
    )


@register.simple_tag(takes_context=True)
def person_json_ld(context, person):
    request = context["request"]
    return structured_data.json_ld_script(structured_data.person(person, request=request))
