"""schema.org JSON-LD for a publication's page (ScholarlyArticle). The Highwire Press
`citation_*` tags Google Scholar reads are plain <meta> tags in the publication template."""

from base.markdown import plain_text
from base.structured_data import described
from people.structured_data import person_reference
from publications.exports import equal_contribution_note
from publications.models import Publication, Venue


def scholarly_article(publication: Publication, *, request) -> dict:
    """Reads only what Publication.objects.for_listing() prefetched. A thesis is schema.org's
    Thesis, its university the organization it comes from (`sourceOrganization`), not a
    work it is part of."""
    is_thesis = publication.type == Publication.Type.THESIS
    data = {
        **described("Thesis" if is_thesis else "ScholarlyArticle", publication, request=request),
        "headline": publication.title,
        "name": publication.title,
        "author": [
            person_reference(
                authorship.name, authorship.person, external=authorship.external, request=request
            )
            for authorship in publication.authorships.all()
        ],
    }
    if publication.title_zh_hans.strip():
        # The original stays the name, as in every citation; the translation staff gave is
        # an alternate name in its language, on the pages of both languages.
        data["alternateName"] = {"@value": publication.title_zh_hans, "@language": "zh-Hans"}
    equal = [a.name for a in publication.authorships.all() if a.equal_contribution]
    if credit := equal_contribution_note(equal):
        data["creditText"] = credit  # schema.org has no mark of its own for equal contribution
    if publication.year:
        data["datePublished"] = str(publication.year)
    if (venue := publication.venue) and is_thesis:
        data["sourceOrganization"] = {
            "@type": "Organization",
            "name": venue.full_name or venue.short_name,
        }
    elif venue:
        is_journal = venue.kind == Venue.Kind.JOURNAL
        data["isPartOf"] = {
            "@type": "Periodical" if is_journal else "CreativeWork",
            "name": venue.full_name or venue.short_name,
        }
        # schema.org has a field for the short name, so it is not put in brackets as on the
        # page; like the page's label, it is left out when it would repeat the name ("arXiv").
        if venue.display_name != venue.short_name:
            data["isPartOf"]["alternateName"] = venue.short_name
    if publication.publisher:
        data["publisher"] = {"@type": "Organization", "name": publication.publisher}
    if publication.doi:
        data["identifier"] = {
            "@type": "PropertyValue",
            "propertyID": "DOI",
            "value": publication.doi,
        }
        data["sameAs"] = f"https://doi.org/{publication.doi}"
    if pdf := publication.pdf_url:
        data["encoding"] = {
            "@type": "MediaObject",
            "contentUrl": pdf,
            "encodingFormat": "application/pdf",
        }
    if abstract := plain_text(publication.abstract_html):
        data["abstract"] = abstract
    if awards := [award.name for award in publication.awards.all()]:
        data["award"] = awards
    return data
