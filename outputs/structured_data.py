"""schema.org JSON-LD for an output's page: a `Dataset` or a `SoftwareSourceCode`."""

from django.http import HttpRequest

from base.markdown import plain_text
from base.structured_data import described
from outputs.exports import spdx_url
from outputs.models import Output
from people.structured_data import orcid_identity


def creator_reference(creator, *, request: HttpRequest) -> dict:
    """A creator as the page names them: their profile's address when they are a member with a
    public one, and their ORCID iD when known, so a harvester can tell them from namesakes."""
    data: dict[str, object] = {"@type": "Person", "name": creator.researcher.name}
    if (member := creator.member) is not None:
        data["url"] = request.build_absolute_uri(member.get_absolute_url())
    if creator.researcher.orcid:
        data.update(orcid_identity(creator.researcher.orcid))
    return data


def output_json_ld(output: Output, *, request: HttpRequest) -> dict:
    """Reads only what Output.objects.for_page() prefetched."""
    schema_type = "SoftwareSourceCode" if output.is_software else "Dataset"
    data = {
        **described(schema_type, output, request=request),
        "name": output.title,
        "creator": [creator_reference(c, request=request) for c in output.creators.all()],
    }
    # Google's dataset search asks for a description; the title stands in when there is none.
    data["description"] = plain_text(output.description_html) or output.title
    if output.version:
        data["version"] = output.version
    if output.licence:
        data["license"] = spdx_url(output.licence)
    if output.released:
        data["datePublished"] = output.released.isoformat()
    same_as = []
    if output.doi:
        data["identifier"] = {"@type": "PropertyValue", "propertyID": "DOI", "value": output.doi}
        same_as.append(f"https://doi.org/{output.doi}")
    if output.url and output.is_software:
        data["codeRepository"] = output.url
    elif output.url:
        same_as.append(output.url)  # a dataset's landing page: the same dataset elsewhere
    if same_as:
        data["sameAs"] = same_as
    if papers := getattr(output, "listed_publications", []):
        data["citation"] = [
            request.build_absolute_uri(paper.get_absolute_url()) for paper in papers
        ]
    return data
