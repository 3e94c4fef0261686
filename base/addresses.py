"""Slugs that another page's address would hide.

A page's address is its slug under a prefix ("/publications/<slug>/"), and the same prefix has
fixed addresses of its own ("/publications/feed/", "/publications/embed/") that the URLconf
tries first. A paper given the slug "feed" was stored and its page could never be reached.

The words are not typed here: every address of the namespace that takes the slug (the page,
its ".bib" citation, a profile's CV) is built with the new slug and resolved through the
URLconf; if it reaches another view, the slug is taken. A fixed address added later is
refused as a slug from then on, with no list to keep up to date.
"""

from functools import cache

from django.core.exceptions import ValidationError
from django.urls import NoReverseMatch, Resolver404, get_resolver, resolve, reverse
from django.utils.deconstruct import deconstructible
from django.utils.text import slugify


@cache
def slug_url_names(namespace: str) -> tuple[str, ...]:
    """The URL names in `namespace` whose address takes a `slug`: "detail", "citation", "cv"."""
    if namespace not in get_resolver().namespace_dict:
        return ()  # a page the URLconf does not serve has no address to hide
    _prefix, resolver = get_resolver().namespace_dict[namespace]
    names = set()
    for key in resolver.reverse_dict:
        if not isinstance(key, str):
            continue  # the views themselves are keys too
        for possibilities, *_rest in resolver.reverse_dict.getlist(key):
            if any("slug" in params for _format, params in possibilities):
                names.add(key)
    return tuple(sorted(names))


def hidden_address(url_name: str, slug: str) -> str | None:
    """An address a page with this slug would have that shows another page instead, if any.
    `url_name` names the page ("publications:detail"); its namespace's other addresses taking
    the slug are checked too."""
    namespace = url_name.partition(":")[0]
    for name in slug_url_names(namespace):
        view_name = f"{namespace}:{name}"
        try:
            address = reverse(view_name, kwargs={"slug": slug})
            match = resolve(address)
        except (NoReverseMatch, Resolver404):
            continue  # not a slug at all: the field's own validator says so
        if match.view_name != view_name:
            return address
    return None


@deconstructible
class FreeAddressValidator:
    """Refuses a slug whose page would be hidden by another address under the same prefix."""

    def __init__(self, url_name: str):
        self.url_name = url_name

    def __call__(self, slug: str) -> None:
        if address := hidden_address(self.url_name, slug):
            raise ValidationError(
                f"“{slug}” cannot be used: {address} is already the address of another page "
                "of the site. Choose another web address, e.g. one with a word added.",
                code="reserved_slug",
            )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FreeAddressValidator) and other.url_name == self.url_name

    def __hash__(self) -> int:
        return hash(self.url_name)


def unique_title_slug(title: str, *, taken: set[str], url_name: str, fallback: str) -> str:
    """A new page's slug from its title (cut at a word within 60 characters), numbered while
    `taken` has it or another page's address would hide it; added to `taken`. What the imports
    name the papers, datasets and software they create by."""
    slug = slugify(title)
    if len(slug) > 60:
        slug = slug[:60].rsplit("-", 1)[0]
    base = slug or fallback
    slug, number = base, 2
    while slug in taken or hidden_address(url_name, slug):
        slug, number = f"{base}-{number}", number + 1
    taken.add(slug)
    return slug
