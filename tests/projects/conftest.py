"""Projects, funders and grants for the tests: the seeded fixtures have none (the seed stays
true to the four profiles)."""

from itertools import count

import pytest

from people.models import Person
from projects.models import Funder, Grant, Project, ProjectPerson
from tests.factories import make_named, make_person, make_publication
from tests.outputs.conftest import make_output, make_outsider

_numbers = count(1)


def make_funder(**fields) -> Funder:
    return make_named(Funder, "Funder", "funder", fields)


def make_project(*, people=(), publications=(), grants=(), **fields) -> Project:
    """`people` holds researchers, or (researcher, role) pairs, in order; `grants` Funder rows
    or (funder, award number) pairs, each a new grant of the project."""
    number = next(_numbers)
    fields = {"title": f"Project {number}", "slug": f"project-{number}", **fields}
    project = Project.objects.create(**fields)
    for position, person in enumerate(people, start=1):
        researcher, role = person if isinstance(person, tuple) else (person, "researcher")
        ProjectPerson.objects.create(
            project=project, position=position, researcher=researcher, role=role
        )
    for grant in grants:
        funder, award = grant if isinstance(grant, tuple) else (grant, "")
        Grant.objects.create(funder=funder, award_number=award, project=project)
    project.publications.add(*publications)
    return project


def add_projects_to_seed() -> None:
    """A project of a seeded member with a grant, and a draft: the seed has none (it stays true
    to the four profiles), the API's fuzzer needs some."""
    hang = Person.objects.get(slug="hang-zhu")
    funder = make_funder(name="Seeded Council", slug="seeded-council")
    make_project(
        title="Seeded project", start="2024", people=[(hang, "pi")], grants=[(funder, "S-1")]
    )
    make_project(title="Draft project", is_published=False, people=[hang])
    make_project(title="Ended project", start="2019", end="2021", people=[hang])


@pytest.fixture
def lab_projects(db):
    """A member (Hang Zhu) leading a current project funded by the ERC with an outsider, with a
    paper (which acknowledges the grant) and a piece of software; and a past project of
    another member, funded by the NSF."""
    hang = make_person(name="Hang Zhu", slug="hang-zhu", orcid="0000-0002-1825-0097")
    ada = make_person(name="Ada Lovelace", slug="ada-lovelace")
    bo = make_outsider(name="Bo Zhao", slug="bo-zhao")
    erc = make_funder(
        name="European Research Council", slug="erc", registry_id="10.13039/501100000781"
    )
    nsf = make_funder(
        name="National Science Foundation", slug="nsf", registry_id="10.13039/100000001"
    )
    paper = make_publication(title="Klotski", slug="klotski", year=2023, authors=[hang, "Bo Zhao"])
    other_paper = make_publication(title="Engines", slug="engines", year=2019, authors=[ada])
    software = make_output(kind="software", title="Klotski simulator", slug="klotski-simulator")
    klotski = make_project(
        title="Reconfigurable networks",
        slug="reconfigurable-networks",
        summary="Networks that *rewire* themselves.",
        start="2023-09",
        people=[(hang, "pi"), (bo, "collaborator")],
        grants=[(erc, "101012345")],
        publications=[paper],
    )
    klotski.outputs.add(software)
    grant = klotski.grants.get()
    grant.publications.add(paper)
    engines = make_project(
        title="Analytical engines",
        slug="analytical-engines",
        start="2015",
        end="2019-06",
        people=[(ada, "pi")],
        grants=[(nsf, "CNS-1234567")],
        publications=[other_paper],
    )
    return {
        "hang": hang,
        "ada": ada,
        "bo": bo,
        "erc": erc,
        "nsf": nsf,
        "paper": paper,
        "other_paper": other_paper,
        "software": software,
        "klotski": klotski,
        "engines": engines,
        "grant": grant,
    }
