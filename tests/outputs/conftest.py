"""Datasets and software for the tests: nothing of them is in the seeded fixtures."""

from itertools import count

import pytest

from outputs.models import Output, OutputCreator
from people.models import ExternalPerson, Person
from tests.factories import make_named, make_person, make_publication

_numbers = count(1)


def make_output(*, creators=(), publications=(), **fields) -> Output:
    """`creators` holds researchers (members' Person rows or ExternalPerson rows), in order."""
    number = next(_numbers)
    fields = {"title": f"Output {number}", "slug": f"output-{number}", **fields}
    output = Output.objects.create(**fields)
    for position, researcher in enumerate(creators, start=1):
        OutputCreator.objects.create(output=output, position=position, researcher=researcher)
    output.publications.add(*publications)
    return output


def make_outsider(**fields) -> ExternalPerson:
    return make_named(ExternalPerson, "Outsider", "outsider", fields)


def add_outputs_to_seed() -> None:
    """A piece of software and a dataset by a seeded member, and a draft: the seed has none
    (it stays true to the four profiles), the API's fuzzer needs some."""
    hang = Person.objects.get(slug="hang-zhu")
    make_output(kind="software", title="Seeded tool", version="0.1", licence="MIT", creators=[hang])
    make_output(kind="dataset", title="Seeded traces", released="2024-05", creators=[hang])
    make_output(title="Draft traces", is_published=False, creators=[hang])


@pytest.fixture
def lab_outputs(db):
    """A member (Hang Zhu) with a paper, a piece of software and a dataset they made with an
    outside researcher, both linked to the paper."""
    hang = make_person(name="Hang Zhu", slug="hang-zhu", orcid="0000-0002-1825-0097")
    bo = make_outsider(name="Bo Zhao", slug="bo-zhao")
    paper = make_publication(title="Klotski", slug="klotski", year=2023, authors=[hang, "Bo Zhao"])
    software = make_output(
        kind=Output.Kind.SOFTWARE,
        title="Klotski simulator",
        slug="klotski-simulator",
        version="1.2.0",
        licence="MIT",
        url="https://github.com/example/klotski",
        doi="10.5281/zenodo.1234567",
        released="2023-07-25",
        description="A *simulator* of reconfigurable networks.",
        creators=[hang, bo],
        publications=[paper],
    )
    dataset = make_output(
        kind=Output.Kind.DATASET,
        title="Klotski traces",
        slug="klotski-traces",
        licence="CC-BY-4.0",
        url="https://zenodo.org/records/7654321",
        released="2023-05",
        creators=[bo, hang],
        publications=[paper],
    )
    return {"hang": hang, "bo": bo, "paper": paper, "software": software, "dataset": dataset}
