"""schemathesis, a tool we did not write, fuzzes every endpoint and parameter of the API from
its own OpenAPI schema, over the seeded site with research groups and areas added: no answer is
a 5xx, every answer (errors too) matches the schema and its documented statuses, invalid input
is refused with a 4xx and valid input accepted. Bounded for CI: a fixed seed (derandomize) and a limited number of examples.

Each operation is driven through its hypothesis strategy inside a test: schemathesis' own
pytest loader cannot run under pytest 9.2 yet. The requests go through the site's real WSGI
application (config/wsgi.py's, less the serving process's preparation, config/serve.py, which
would change this test process's interpreter for every test after), middleware and all.
"""

import datetime

import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ninja import NinjaAPI
from schemathesis import GenerationMode

from config.api import api
from people.models import Person
from tests.cases import SeededTestCase, parametrize
from tests.department import add_groups_to_seed
from tests.factories import make_event
from tests.outputs.conftest import add_outputs_to_seed
from tests.projects.conftest import add_projects_to_seed

application = get_wsgi_application()

# Every operation the API declares, read without the database (the choices come later).
OPERATIONS = [
    (method.upper(), path)
    for path, operations in NinjaAPI.get_openapi_schema(api)["paths"].items()
    for method in operations
]
EXAMPLES = 30
DETAILS = {
    "/api/people/{slug}/": ("/api/people/", "slug"),
    "/api/publications/{slug}/": ("/api/publications/", "slug"),
    "/api/news/{slug}/": ("/api/news/", "slug"),
    "/api/venues/{short_name}/": ("/api/venues/", "short_name"),
    "/api/groups/{slug}/": ("/api/groups/", "slug"),
    "/api/areas/{slug}/": ("/api/areas/", "slug"),
    "/api/events/{slug}/": ("/api/events/", "slug"),
    "/api/outputs/{slug}/": ("/api/outputs/", "slug"),
    "/api/projects/{slug}/": ("/api/projects/", "slug"),
}


def examples_as_the_only_values(schema: dict) -> dict:
    """The schema with each parameter that gives examples of today's rows (a venue, a member, a
    group; base.api.with_choices) taking those values only. The served schema leaves them
    open, since rows come and go; any other string there is refused as an unknown venue (400,
    documented), which the fuzzer would count as a valid request rejected."""
    for operations in schema["paths"].values():
        for operation in operations.values():
            for parameter in operation.get("parameters", []):
                schema_ = parameter["schema"]
                if "examples" in schema_.get("items", {}):
                    schema_["items"]["enum"] = schema_["items"]["examples"]
                elif "examples" in schema_:
                    # A one-value filter left empty is "any", as the page's "Everyone" sends.
                    schema_["enum"] = ["", *schema_["examples"]]
    return schema


class SchemaFuzzingTests(SeededTestCase):
    @classmethod
    def setUpTestData(cls):
        """Research groups and areas, and talks (the seed has none), drafts among them: the
        groups' and areas' slugs are the filters' choices in the schema."""
        super().setUpTestData()
        add_groups_to_seed()
        # Talks, a draft among them (the seed has none): read back one by one as the others.
        hang = Person.objects.get(slug="hang-zhu")
        make_event(speaker=hang, starts_in=datetime.timedelta(days=3), time_zone="Asia/Tokyo")
        make_event(starts_in=-datetime.timedelta(days=30), kind="defence")
        make_event(starts_in=datetime.timedelta(days=1), is_published=False)
        add_outputs_to_seed()
        add_projects_to_seed()

    @classmethod
    def setUpClass(cls):
        # The end of a request closes a database connection that is inside a transaction, as
        # the test's is (Django's test client does the same): on PostgreSQL the next request
        # would find the seed gone.
        for signal in (request_started, request_finished):
            signal.disconnect(close_old_connections)
            cls.addClassCleanup(signal.connect, close_old_connections)
        super().setUpClass()
        # Read once, over the seed. Not in setUpTestData, which would deep-copy it for every
        # test. Read through the WSGI application, not Django's test client: the client
        # connects close_old_connections again after its request.
        served = schemathesis.openapi.from_wsgi("/api/openapi.json", application).raw_schema
        cls.api_schema = schemathesis.openapi.from_dict(examples_as_the_only_values(served))
        cls.api_schema.app = application

    def test_the_fuzzer_covers_every_operation(self):
        assert len(OPERATIONS) == 19
        assert {path for _method, path in OPERATIONS if "{" in path} == set(DETAILS)

    @parametrize("method, path", OPERATIONS)
    def test_every_operation_answers_as_its_schema_says(self, method, path):
        self.fuzz(self.api_schema[path][method])

    def fuzz(self, operation) -> None:
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

    def test_every_seeded_object_answers_as_its_schema_says(self):
        """Random slugs mostly find nothing: each real one is checked here, as its list gives
        it."""
        checked = 0
        for path, (list_path, key) in DETAILS.items():
            listed = self.api_schema[list_path]["GET"].Case(query={}).call_and_validate().json()
            assert listed["pages"] == 1
            for row in listed["results"]:
                case = self.api_schema[path]["GET"].Case(path_parameters={key: row[key]})
                assert case.call_and_validate().status_code == 200
                checked += 1
        assert checked == 4 + 29 + 5 + 15 + 2 + 2 + 2 + 2 + 2  # ... talks, outputs, projects
