"""Tags for what a page tells indexers and link previews: its canonical URL, its versions in
other languages. Each app's template
tags write its JSON-LD (people, publications)."""

from dataclasses import dataclass

from django import template
from django.conf import settings
from django.http import HttpRequest
from django.template import Context
from django.urls import translate_url
from django.utils import translation

from base import markdown

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


@dataclass(frozen=True)
class LanguageVersion:
    """This page in one of settings.LANGUAGES."""

    code: str  # Django's code, which is also the page's BCP 47 tag: "zh-hans"
    name: str  # the language's name in itself: "简体中文"
    canonical: str  # the absolute address without the query string, for hreflang
    address: str  # the path with the query string, for the switcher: the same filtered list
    current: bool


@register.simple_tag(takes_context=True)
def language_versions(context: Context) -> list[LanguageVersion]:
    """This page in each language the site speaks, for its `<link rel="alternate" hreflang>`
    and the language switcher: the same view and arguments under each language's prefix
    (English at the plain address). Empty on an address no page answers (a 404), which has no
    versions."""
    request: HttpRequest = context["request"]
    current = translation.get_language()
    if request.resolver_match is None:
        return []
    versions = []
    for code, name in settings.LANGUAGES:
        path = translate_url(request.path, code)
        if path == request.path and code != current:
            return []  # an address outside the translated pages
        # The switcher keeps a list's filters; without any, the address is the path itself.
        full_path = request.get_full_path()
        address = translate_url(full_path, code) if full_path != request.path else path
        versions.append(
            LanguageVersion(
                code=code,
                name=name,
                canonical=request.build_absolute_uri(path),
                address=address,
                current=code == current,
            )
        )
    return versions
