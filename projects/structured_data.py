"""schema.org JSON-LD for projects and funding: a project's page is a `ResearchProject`; its
grants, and a paper's, are `funding` → `Grant`, each with its `funder` an `Organization`
identified by its Crossref Funder Registry DOI."""

from collections.abc import Iterable

from django.http import HttpRequest

from base.markdown import plain_text
from base.structured_data import described, without_empty
from people.structured_data import orcid_identity
from projects.models import Funder, Grant, Project


def funder_organization(funder: Funder) -> dict:
    data: dict[str, object] = {"@type": "Organization", "name": funder.name}
    if funder.registry_id:
        data["identifier"] = {
            "@type": "PropertyValue",
            "propertyID": "Crossref Funder ID",
            "value": funder.registry_id,
        }
        data["sameAs"] = funder.registry_url
    return data


def grant_json_ld(grant: Grant) -> dict:
    """Reads the funder selected with the grant."""
    return {
        "@type": "Grant",
        "funder": funder_organization(grant.funder),
        **without_empty({"identifier": grant.award_number, "name": grant.title, "url": grant.url}),
    }


def funding_json_ld(grants: Iterable[Grant]) -> list[dict]:
    return [grant_json_ld(grant) for grant in grants]


def project_json_ld(project: Project, *, request: HttpRequest) -> dict:
    """Reads only what Project.objects.for_page() prefetched. Its people are `member`s, each
    in a `Role` naming what they do (schema.org's way to qualify a membership)."""
    data = {
        **described("ResearchProject", project, request=request),
        "name": project.title,
    }
    if description := plain_text(project.summary_html):
        data["description"] = description
    if project.start:
        data["foundingDate"] = project.start.isoformat()
    if project.end:
        data["dissolutionDate"] = project.end.isoformat()
    if project.url:
        data["sameAs"] = project.url
    members = []
    for row in project.people.all():
        person: dict[str, object] = {"@type": "Person", "name": row.researcher.name}
        if (member := row.member) is not None:
            person["url"] = request.build_absolute_uri(member.get_absolute_url())
        if row.researcher.orcid:
            person.update(orcid_identity(row.researcher.orcid))
        members.append({"@type": "Role", "roleName": row.get_role_display(), "member": person})
    if members:
        data["member"] = members
    if grants := funding_json_ld(project.grants.all()):
        data["funding"] = grants
    return data


def codemeta_funding(output) -> dict[str, list[dict]]:
    """CodeMeta 3.0's `funding` (schema.org Grants) and `funder` (their Organizations) for a
    piece of software, from the grants of the published projects it came of: one query. Empty
    when none: the file then says nothing of funding."""
    grants = list(
        Grant.objects.filter(project__outputs=output, project__is_published=True).for_papers()
    )
    if not grants:
        return {}
    funders = {grant.funder_id: grant.funder for grant in grants}
    return {
        "funding": funding_json_ld(grants),
        "funder": [funder_organization(funder) for funder in funders.values()],
    }
