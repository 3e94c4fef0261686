"""Tags for what a page tells indexers and link previews: its canonical URL. Each app's template
tags write its JSON-LD (people, publications)."""

from django import template
from django.http import HttpRequest
from django.template import Context

from directory import markdown

register = template.Library()


@register.simple_tag(takes_context=True)
def canonical_url(context: Context) -> str:
    """This page's address without its query string: filtered or paged views of a list are the
    list, for search engines and link previews."""
    request: HttpRequest = context["request"]
    return request.build_absolute_uri(request.path)


@register.simple_tag(takes_context=True)
def absolute_url(context: Context, path: str) -> str:
    request: HttpRequest = context["request"]
    return request.build_absolute_uri(path)


@register.filter
def plain_text(rendered: str) -> str:
    """A rendered Markdown companion as plain text, for a meta description."""
    return markdown.plain_text(rendered)
