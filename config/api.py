"""The read-only JSON API at /api/, assembled from each app's routers (people/api.py: people,
groups and areas; publications/api.py, outputs/api.py, projects/api.py, news/api.py, events/api.py), with its OpenAPI schema and browsable docs.

django-ninja builds the schema from the same pydantic types that shape each response, so the
schema cannot drift from what the endpoints return; schemathesis checks both in the tests.
Every error is JSON: ninja's own here, the rest of Django's (an unknown path, a POST) by
config/middleware.py.
"""

from django.http import Http404, HttpRequest
from ninja import NinjaAPI
from ninja.errors import HttpError, ValidationError
from ninja.openapi.docs import Swagger

from base.api import with_choices
from events.api import router as events_router
from news.api import router as news_router
from outputs.api import router as outputs_router
from people.api import department_router
from people.api import router as people_router
from projects.api import router as projects_router
from projects.filters import FundedPublicationFilter, funder_facet
from publications.api import add_publication_list
from publications.api import router as publications_router


class LabAPI(NinjaAPI):
    def get_openapi_schema(self, *args, **kwargs):
        """With the filters' fixed choices, and examples of those drawn from the database."""
        return with_choices(super().get_openapi_schema(*args, **kwargs))


api = LabAPI(
    title="Lab directory API",
    version="1",
    description=(
        "Read-only: people, publications, venues, datasets and software, projects and their funders, news, talks and events, "
        "research groups and research areas, as "
        "the site's pages show them. "
        "Lists take the same filters as their pages and come in pages; drafts never appear. "
        "Open to every origin (CORS) for GET."
    ),
    urls_namespace="api",
    openapi_url="/openapi.json",
    docs_url="/docs/",
    # The docs' script and styles come from ninja's static files, served by whitenoise.
    docs=Swagger(settings={"deepLinking": False, "defaultModelsExpandDepth": 0}),
)
api.add_router("", people_router)
# With the funder filter, as the HTML list (pages/views/publications.py): publications may not
# import projects.
add_publication_list(
    publications_router, filterset_class=FundedPublicationFilter, more_facets=funder_facet
)
api.add_router("", publications_router)
api.add_router("", news_router)
api.add_router("", events_router)
api.add_router("", outputs_router)
api.add_router("", projects_router)
api.add_router("", department_router)


@api.exception_handler(ValidationError)
def invalid_parameters(request: HttpRequest, error: ValidationError):
    """A malformed parameter ("year=abc") is a 400, in the same shape as every other error."""
    lines = []
    for problem in error.errors:
        where = ".".join(str(part) for part in problem.get("loc", [])[1:]) or "request"
        lines.append(f"{where}: {problem.get('msg', 'invalid')}")
    return api.create_response(
        request, {"detail": "Some parameters are not valid.", "errors": lines}, status=400
    )


@api.exception_handler(HttpError)
def http_error(request: HttpRequest, error: HttpError):
    return api.create_response(
        request, {"detail": str(error), "errors": []}, status=error.status_code
    )


@api.exception_handler(Http404)
def not_found(request: HttpRequest, error: Http404):
    return api.create_response(request, {"detail": "Not Found", "errors": []}, status=404)
