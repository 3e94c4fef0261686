"""Builders for the department's rows (groups, memberships, areas, external people), in the
manner of tests/factories.py: keyword arguments override the defaults."""

from itertools import count

from people.models import ExternalPerson, Membership, ResearchArea, ResearchGroup

_numbers = count(1)


def make_research_group(**fields) -> ResearchGroup:
    number = next(_numbers)
    fields = {"name": f"Research Group {number}", "slug": f"research-group-{number}", **fields}
    return ResearchGroup.objects.create(**fields)


def make_membership(person, group, **fields) -> Membership:
    return Membership.objects.create(person=person, group=group, **fields)


def make_area(**fields) -> ResearchArea:
    number = next(_numbers)
    fields = {"name": f"Area {number}", "slug": f"area-{number}", **fields}
    return ResearchArea.objects.create(**fields)


def make_external(**fields) -> ExternalPerson:
    number = next(_numbers)
    fields = {"name": f"Outside Person {number}", "slug": f"outside-{number}", **fields}
    return ExternalPerson.objects.create(**fields)
