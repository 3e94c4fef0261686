import pytest

from base.models import Lab
from tests.factories import make_person, make_publication, make_venue
from tests.identifier_service import recorded_services


@pytest.fixture
def member_with_papers():
    """Hang Zhu, a member, on two NSDI papers: Klotski (2023) and Ring (2024)."""
    Lab.objects.current()
    member = make_person(name="Hang Zhu", slug="hang-zhu")
    nsdi = make_venue(short_name="NSDI")
    make_publication(
        title="Klotski", slug="klotski", year=2023, venue=nsdi, authors=[member, "Bo Zhao"]
    )
    make_publication(title="Ring", slug="ring", year=2024, venue=nsdi, authors=["Ann Lee", member])
    return member


@pytest.fixture
def services(settings):
    """The identifier services (Crossref, OpenAlex, ORCID, dblp, arXiv) answering from
    recorded responses on 127.0.0.1, with fetching turned on (tests/identifier_service.py)."""
    with recorded_services() as service:
        settings.IDENTIFIER_FETCHING = True
        settings.IDENTIFIER_SERVICE_URLS = service.urls()
        yield service
