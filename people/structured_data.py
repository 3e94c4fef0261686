"""schema.org JSON-LD for a profile (Person), and for a person named elsewhere (an author)."""

from directory.structured_data import described
from people.models import Person


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
        data["identifier"] = {
            "@type": "PropertyValue",
            "propertyID": "ORCID",
            "value": person.orcid,
        }
        links = [person.orcid_url, *(url for url in links if url != person.orcid_url)]
    if links:
        data["sameAs"] = links
    return data


def person_reference(name: str, person: Person | None, *, request) -> dict:
    """A person as another page names them: linked to their profile when it is public."""
    author = {"@type": "Person", "name": name}
    if person is not None and person.is_published:
        author["url"] = request.build_absolute_uri(person.get_absolute_url())
    return author
