"""What indexers and link previews read from a page, built here as data, not in templates.

schema.org JSON-LD for a publication (ScholarlyArticle) and a profile (Person). The Highwire
Press `citation_*` tags Google Scholar reads are plain <meta> tags in the publication template.
"""

import json

from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from people.models import Person
from publications.exports import pdf_url
from publications.models import Publication, Venue

# What Django's json_script escapes: no "</script>" or "<!--" can end the block early.
JSON_HTML_ESCAPES = {ord("<"): "\\u003C", ord(">"): "\\u003E", ord("&"): "\\u0026"}


def json_ld_script(data: dict) -> SafeString:
    text = json.dumps(data, ensure_ascii=False, sort_keys=False).translate(JSON_HTML_ESCAPES)
    return format_html('<script type="application/ld+json">{}</script>', mark_safe(text))


def scholarly_article(publication: Publication, *, request) -> dict:
    """Reads only what Publication.objects.for_listing() prefetched."""
    data = {
        "@context": "https://schema.org",
        "@type": "ScholarlyArticle",
        "@id": request.build_absolute_uri(publication.get_absolute_url()),
        "url": request.build_absolute_uri(publication.get_absolute_url()),
        "headline": publication.title,
        "name": publication.title,
        "author": [
            _author(authorship.name, authorship.person, request=request)
            for authorship in publication.authorships.all()
        ],
    }
    if publication.year:
        data["datePublished"] = str(publication.year)
    if venue := publication.venue:
        is_journal = venue.kind == Venue.Kind.JOURNAL
        data["isPartOf"] = {
            "@type": "Periodical" if is_journal else "CreativeWork",
            "name": venue.full_name or venue.short_name,
        }
        # schema.org has a field for the short name, so it is not put in brackets as on the
        # page; like the page's label, it is left out when it would repeat the name ("arXiv").
        if venue.display_name != venue.short_name:
            data["isPartOf"]["alternateName"] = venue.short_name
    if publication.doi:
        data["identifier"] = {
            "@type": "PropertyValue",
            "propertyID": "DOI",
            "value": publication.doi,
        }
        data["sameAs"] = f"https://doi.org/{publication.doi}"
    if pdf := pdf_url(publication):
        data["encoding"] = {
            "@type": "MediaObject",
            "contentUrl": pdf,
            "encodingFormat": "application/pdf",
        }
    if publication.abstract:
        data["abstract"] = publication.abstract
    if awards := [award.name for award in publication.awards.all()]:
        data["award"] = awards
    return data


def _author(name: str, person: Person | None, *, request) -> dict:
    author = {"@type": "Person", "name": name}
    if person is not None and person.is_published:
        author["url"] = request.build_absolute_uri(person.get_absolute_url())
    return author


def person(person: Person, *, request) -> dict:
    """Reads only what Person.objects.for_profile() prefetched. The email address is left out:
    the page keeps it from address harvesters, and so does its data."""
    data = {
        "@context": "https://schema.org",
        "@type": "Person",
        "@id": request.build_absolute_uri(person.get_absolute_url()),
        "url": request.build_absolute_uri(person.get_absolute_url()),
        "name": person.name,
    }
    if person.position_title:
        data["jobTitle"] = person.position_title
    if person.affiliation_list:
        data["affiliation"] = [
            {"@type": "Organization", "name": name} for name in person.affiliation_list
        ]
    if person.short_bio:
        data["description"] = person.short_bio
    if person.interest_list:
        data["knowsAbout"] = person.interest_list
    if person.photo:
        data["image"] = request.build_absolute_uri(person.photo.url)
    if links := [link.url for link in person.links.all()]:
        data["sameAs"] = links
    return data
