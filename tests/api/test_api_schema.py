"""schemathesis, a tool we did not write, fuzzes every endpoint and parameter of the API from
its own OpenAPI schema, over the seeded site: no answer is a 5xx, every answer (errors too)
matches the schema and its documented statuses, invalid input is refused with a 4xx and valid
input accepted. Bounded for CI: a fixed seed (derandomize) and a limited number of examples.

Each operation is one test, driven through its hypothesis strategy: schemathesis' own pytest
loader cannot run under pytest 9.2 yet.
"""

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ninja import NinjaAPI
from schemathesis import GenerationMode

from config.api import api
from config.wsgi import application

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("seeded")]

# Every operation the API declares, read without the database (the choices come later).
OPERATIONS = [
    (method.upper(), path)
    for path, operations in NinjaAPI.get_openapi_schema(api)["paths"].items()
    for method in operations
]
EXAMPLES = 30


@pytest.fixture(scope="module")
def api_schema(seeded, django_db_blocker):
    """Read once: the venues and members of the seed are its choices."""
    with django_db_blocker.unblock():
        return schemathesis.openapi.from_wsgi("/api/openapi.json", application)


def test_the_fuzzer_covers_every_operation():
    assert len(OPERATIONS) == 8


@pytest.mark.parametrize(("method", "path"), OPERATIONS)
def test_every_operation_answers_as_its_schema_says(api_schema, method, path):
    operation = api_schema[path][method]
    cases = st.one_of(
        operation.as_strategy(GenerationMode.POSITIVE),
        operation.as_strategy(GenerationMode.NEGATIVE),
    )

    @given(case=cases)
    @settings(
        max_examples=EXAMPLES,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    def answers_as_documented(case):
        case.call_and_validate()

    answers_as_documented()


DETAILS = {
    "/api/people/{slug}/": ("/api/people/", "slug"),
    "/api/publications/{slug}/": ("/api/publications/", "slug"),
    "/api/news/{slug}/": ("/api/news/", "slug"),
    "/api/venues/{short_name}/": ("/api/venues/", "short_name"),
}


def test_every_seeded_object_answers_as_its_schema_says(api_schema, client):
    """Random slugs mostly find nothing: each real one is checked here, as its list gives it."""
    assert set(DETAILS) == {path for _method, path in OPERATIONS if "{" in path}
    checked = 0
    for path, (list_path, key) in DETAILS.items():
        listed = api_schema[list_path]["GET"].Case(query={}).call_and_validate().json()
        assert listed["pages"] == 1
        for row in listed["results"]:
            case = api_schema[path]["GET"].Case(path_parameters={key: row[key]})
            assert case.call_and_validate().status_code == 200
            checked += 1
    assert checked == 4 + 29 + 5 + 15
