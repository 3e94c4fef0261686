"""schema.org JSON-LD for a profile (Person), and for a person named elsewhere (an author)."""

from base.identifiers import orcid_url
from base.structured_data import described
from people.models import ExternalPerson, Person
from people.names import split_name


def profile(person: Person, *, request) -> dict:
    """Reads only what Person.objects.for_profile() prefetched. The email address is left out:
    the page keeps it from address harvesters, and so does its data."""
    data = {**described("Person", person, request=request), "name": person.name}
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
    links = [link.url for link in person.links.all()]
    if person.orcid:
        # The ORCID record is the person's identity across sites: first among their pages.
        data["identifier"] = orcid_identity(person.orcid)["identifier"]
        links = [person.orcid_url, *(url for url in links if url != person.orcid_url)]
    if links:
        data["sameAs"] = links
    return data


def orcid_identity(orcid: str) -> dict:
    """An ORCID iD as schema.org names it: the identifier, and the record as the same person."""
    return {
        "identifier": {"@type": "PropertyValue", "propertyID": "ORCID", "value": orcid},
        "sameAs": orcid_url(orcid),
    }


def person_reference(
    name: str, person: Person | None, *, request, external: ExternalPerson | None = None
) -> dict:
    """A person as another page names them: linked to their profile when it is public, with
    the ORCID iD of the public member or of the external person's record, so a harvester can
    tell them from namesakes. A draft profile is only a name."""
    author = {"@type": "Person", "name": name}
    if suffix := split_name(name).suffix:
        author["honorificSuffix"] = suffix
    member = person if person is not None and person.is_published else None
    if member is not None:
        author["url"] = request.build_absolute_uri(member.get_absolute_url())
    identified = member or external
    if identified is not None and identified.orcid:
        author.update(orcid_identity(identified.orcid))
    return author
