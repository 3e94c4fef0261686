from django.db.models import Exists
from django.utils.functional import SimpleLazyObject

from base import site_cache
from base.models import Lab
from events.models import Event
from outputs.models import Output
from people.models import ResearchArea, ResearchGroup
from projects.models import Project


def current_lab(request):
    """The lab row with `has_groups`, `has_areas`, `has_events` and `has_outputs`, read at most
    once per request: the header
    reads it, and a view that offers something only to a department (the site search's groups)
    asks the same row rather than running a query of its own."""
    if not hasattr(request, "_lab"):
        groups = Exists(ResearchGroup.objects.published())
        areas = Exists(ResearchArea.objects.published())
        events = Exists(Event.objects.published())
        projects = Exists(Project.objects.published())
        outputs = Exists(Output.objects.published())
        request._lab = SimpleLazyObject(
            lambda: Lab.objects.annotate(
                has_groups=groups,
                has_areas=areas,
                has_events=events,
                has_projects=projects,
                has_outputs=outputs,
            ).current()
        )
    return request._lab


def lab(request):
    """The lab's name for every page's header, read once per request when used, with
    `has_groups`, `has_areas`, `has_events`, `has_projects` and `has_outputs`: whether the
    header offers the Groups, Areas, Events, Projects and Data & software pages (a one-lab site
    has no groups nor areas; a site may have no events, projects, datasets nor software).

    One query: the lab row with an EXISTS, so the header costs no query of its own.
    """
    return {"lab": current_lab(request)}


def fragments(request):
    """What `{% cache %}` keeps the parts of a page under (base/caches.py lists them):
    `fragment_timeout`, 0 (nothing kept) under DEBUG, so a template edited under runserver
    shows at once, or while the request's transaction has written (its stamp has not moved);
    and `fragment_release`, the code's version and the page's language. Each fragment adds the stamp its data was made
    under (`counted`)."""
    return {
        "fragment_timeout": site_cache.fragment_timeout(),
        "fragment_release": SimpleLazyObject(site_cache.language_release),
    }
