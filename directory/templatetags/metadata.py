"""Tags for what a page tells indexers and link previews: its canonical URL. Each app's template
tags write its JSON-LD (people, publications)."""

from django import template

from directory import markdown

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


@register.filter
def plain_text(rendered: str) -> str:
    """A rendered Markdown companion as plain text, for a meta description."""
    return markdown.plain_text(rendered)
